import FetchHistory
import Foundation
import GRDB

/// Importing a history already in memory: every engine gets the same
/// `[Fetch]`, inserts every fetch and its session (`ON CONFLICT DO NOTHING`,
/// counting added and skipped) in one transaction with reused statements.
/// Parsing is left out here; `fetch-history import` measures it whole.
enum ImportEngine: String, CaseIterable {
    /// `Database.importFetches`, in one `HistoryStore.write`.
    case store
    /// The C API, two prepared statements, UUIDs formatted into a buffer.
    case raw
    /// GRDB 7: two prepared statements in one `write`.
    case grdb
}

extension ImportEngine {
    /// Imports `fetches` into the fresh database at `path` (schema already
    /// made); returns the seconds it took and how many were added.
    func importFetches(_ fetches: [Fetch], into path: String) throws -> (seconds: Double, added: Int) {
        let clock = ContinuousClock()
        switch self {
        case .store:
            let store = try HistoryStore(path: path, access: .readWrite)
            let start = clock.now
            let summary = try store.write { db in
                try db.importFetches { insert in
                    for fetch in fetches { try insert(fetch) }
                }
            }
            return ((clock.now - start).seconds, summary.added)

        case .raw:
            let connection = try RawConnection(path: path)
            let start = clock.now
            let insertSession = try connection.prepare(StoreSQL.importSession)
            let insert = try connection.prepare(StoreSQL.importFetch)
            var idText = UUIDText()
            var sessionText = UUIDText()
            var sessions: Set<UUID> = []
            var added = 0
            try connection.execute("BEGIN IMMEDIATE")
            for fetch in fetches {
                sessionText.format(fetch.sessionID)
                if sessions.insert(fetch.sessionID).inserted {
                    sessionText.bind(to: insertSession, at: 1)
                    insertSession.bind(2, fetch.startedAt.millisecondsSince1970)
                    insertSession.bind(3, fetch.source)
                    try insertSession.run()
                }
                let columns = fetch.outcome.map(OutcomeColumns.init)
                idText.format(fetch.id)
                idText.bind(to: insert, at: 1)
                sessionText.bind(to: insert, at: 2)
                insert.bind(3, fetch.source)
                insert.bind(4, fetch.startedAt.millisecondsSince1970)
                insert.bind(5, fetch.endedAt?.millisecondsSince1970)
                insert.bind(6, fetch.durationMilliseconds)
                insert.bind(7, columns?.outcome)
                insert.bind(8, columns?.cancelReason)
                insert.bind(9, columns?.value)
                insert.bind(10, columns?.error)
                insert.bind(11, fetch.response.map { Int64($0.status) })
                insert.bind(12, fetch.response.map { Int64($0.bytes) })
                let script = fetch.script
                let cause = script?.end.map { CauseColumns($0.cause) }
                insert.bind(13, script?.tappedAt.millisecondsSince1970)
                insert.bind(14, script?.timeoutMilliseconds)
                insert.bind(15, cause?.name)
                insert.bind(16, script?.end?.at.millisecondsSince1970)
                insert.bind(17, cause?.answerValue)
                insert.bind(18, cause?.answerError)
                try insert.run()
                if connection.changes == 1 { added += 1 }
            }
            try connection.execute("COMMIT")
            return ((clock.now - start).seconds, added)

        case .grdb:
            let queue = try DatabaseQueue(path: path, configuration: .benchmark)
            let start = clock.now
            let added = try queue.writeWithoutTransaction { db in
                var added = 0
                try db.inTransaction(.immediate) {
                    let insertSession = try db.makeStatement(sql: StoreSQL.importSession)
                    let insert = try db.makeStatement(sql: StoreSQL.importFetch)
                    var sessions: Set<UUID> = []
                    for fetch in fetches {
                        let session = fetch.sessionID.lowercased
                        if sessions.insert(fetch.sessionID).inserted {
                            try insertSession.execute(arguments: [
                                session, fetch.startedAt.millisecondsSince1970, fetch.source,
                            ])
                        }
                        let columns = fetch.outcome.map(OutcomeColumns.init)
                        let script = fetch.script
                        let cause = script?.end.map { CauseColumns($0.cause) }
                        try insert.execute(arguments: [
                            fetch.id.lowercased, session, fetch.source, fetch.startedAt.millisecondsSince1970,
                            fetch.endedAt?.millisecondsSince1970, fetch.durationMilliseconds, columns?.outcome,
                            columns?.cancelReason, columns?.value, columns?.error,
                            fetch.response.map { Int64($0.status) }, fetch.response.map { Int64($0.bytes) },
                            script?.tappedAt.millisecondsSince1970, script?.timeoutMilliseconds, cause?.name,
                            script?.end?.at.millisecondsSince1970, cause?.answerValue, cause?.answerError,
                        ])
                        if db.changesCount == 1 { added += 1 }
                    }
                    return .commit
                }
                return added
            }
            return ((clock.now - start).seconds, added)
        }
    }
}
