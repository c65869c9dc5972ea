@_spi(Benchmarks) import FetchHistory
import Foundation
import GRDB

/// Importing a history already in memory: every engine gets the same
/// `[Fetch]` and does what `Database.importFetches` does, with the store's
/// own SQL (`HistorySQL`, through `@_spi(Benchmarks)`): one transaction, the
/// import's page cache, the indexes dropped and built again after the rows
/// in a small history, every fetch and its session inserted with
/// `ON CONFLICT DO NOTHING` and numbered, added ones counted. Parsing is left
/// out here; `fetch-history import` measures it whole.
enum ImportEngine: String, CaseIterable {
    /// `Database.importFetches`, in one `HistoryStore.write`.
    case store
    /// The C API, two prepared statements, UUIDs formatted into a buffer.
    case raw
    /// GRDB 7: two prepared statements in one `write`.
    case grdb
}

extension ImportEngine {
    /// Imports `fetches` into the database at `path` (schema already made);
    /// returns the seconds it took and how many were added.
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
            try connection.execute("BEGIN IMMEDIATE")
            let plan = try ImportPlan(connection.rows)
            try connection.execute(HistorySQL.setCacheSize(-Int64(HistorySQL.importCacheKibibytes)))
            for sql in plan.before { try connection.execute(sql) }
            let insertSession = try connection.prepare(HistorySQL.importSession)
            let insert = try connection.prepare(HistorySQL.importFetch)
            var idText = UUIDText()
            var sessionText = UUIDText()
            var sessions: Set<UUID> = []
            var added = 0
            for fetch in fetches {
                sessionText.format(fetch.sessionID)
                if sessions.insert(fetch.sessionID).inserted {
                    sessionText.bind(to: insertSession, at: 1)
                    insertSession.bind(2, fetch.startedAt.millisecondsSince1970)
                    insertSession.bind(3, fetch.source)
                    insertSession.bind(4, fetch.host)
                    try insertSession.run()
                }
                let columns = fetch.outcome.map(StoredOutcome.init)
                let script = fetch.script
                let cause = script?.end?.cause
                idText.format(fetch.id)
                insert.bind(1, plan.seqBefore + Int64(added) + 1)
                idText.bind(to: insert, at: 2)
                sessionText.bind(to: insert, at: 3)
                insert.bind(4, fetch.source)
                insert.bind(5, fetch.startedAt.millisecondsSince1970)
                insert.bind(6, fetch.endedAt?.millisecondsSince1970)
                insert.bind(7, fetch.durationMilliseconds)
                insert.bind(8, columns?.outcome)
                insert.bind(9, columns?.cancelReason)
                insert.bind(10, columns?.value)
                insert.bind(11, columns?.error)
                insert.bind(12, fetch.response.map { Int64($0.status) })
                insert.bind(13, fetch.response.map { Int64($0.bytes) })
                insert.bind(14, script?.tappedAt.millisecondsSince1970)
                insert.bind(15, script?.timeoutMilliseconds)
                insert.bind(16, cause?.name)
                insert.bind(17, script?.end?.at.millisecondsSince1970)
                insert.bind(18, cause?.answerValue)
                insert.bind(19, cause?.answerError)
                insert.bind(20, fetch.host)
                try insert.run()
                if connection.changes == 1 { added += 1 }
            }
            for sql in plan.after { try connection.execute(sql) }
            try connection.execute("COMMIT")
            try connection.execute(HistorySQL.setCacheSize(plan.cacheSize))
            return ((clock.now - start).seconds, added)

        case .grdb:
            let queue = try DatabaseQueue(path: path, configuration: .benchmark)
            let start = clock.now
            let added = try queue.writeWithoutTransaction { db in
                var added = 0
                try db.inTransaction(.immediate) {
                    let plan = try ImportPlan { sql, values in
                        try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values)).map { row in
                            (0..<row.count).map { index -> String? in
                                // The plan's queries return integers and text.
                                switch (row[index] as DatabaseValue).storage {
                                case .int64(let integer): String(integer)
                                case .string(let text): text
                                case .null, .double, .blob: nil
                                }
                            }
                        }
                    }
                    try db.execute(sql: HistorySQL.setCacheSize(-Int64(HistorySQL.importCacheKibibytes)))
                    for sql in plan.before { try db.execute(sql: sql) }
                    let insertSession = try db.makeStatement(sql: HistorySQL.importSession)
                    let insert = try db.makeStatement(sql: HistorySQL.importFetch)
                    var sessions: Set<UUID> = []
                    for fetch in fetches {
                        let session = BenchmarkIDs.text(of: fetch.sessionID)
                        if sessions.insert(fetch.sessionID).inserted {
                            try insertSession.execute(arguments: [
                                session, fetch.startedAt.millisecondsSince1970, fetch.source, fetch.host,
                            ])
                        }
                        let columns = fetch.outcome.map(StoredOutcome.init)
                        let script = fetch.script
                        let cause = script?.end?.cause
                        try insert.execute(arguments: [
                            plan.seqBefore + Int64(added) + 1, BenchmarkIDs.text(of: fetch.id), session, fetch.source,
                            fetch.startedAt.millisecondsSince1970, fetch.endedAt?.millisecondsSince1970,
                            fetch.durationMilliseconds, columns?.outcome, columns?.cancelReason, columns?.value,
                            columns?.error, fetch.response.map { Int64($0.status) },
                            fetch.response.map { Int64($0.bytes) }, script?.tappedAt.millisecondsSince1970,
                            script?.timeoutMilliseconds, cause?.name, script?.end?.at.millisecondsSince1970,
                            cause?.answerValue, cause?.answerError, fetch.host,
                        ])
                        if db.changesCount == 1 { added += 1 }
                    }
                    for sql in plan.after { try db.execute(sql: sql) }
                    try db.execute(sql: HistorySQL.setCacheSize(plan.cacheSize))
                    return .commit
                }
                return added
            }
            return ((clock.now - start).seconds, added)
        }
    }
}

/// What the store's import does around its rows, read with the store's SQL
/// through `query` (the rows of a statement with integers bound, as text):
/// the cache to put back, the largest `seq`, and in a small history the
/// indexes to drop before the rows and create after them.
struct ImportPlan {
    var cacheSize: Int64
    var seqBefore: Int64
    var before: [String] = []
    var after: [String] = []

    init(_ query: (_ sql: String, _ values: [Int64]) throws -> [[String?]]) throws {
        func integer(_ sql: String, _ values: [Int64] = []) throws -> Int64 {
            Int64(try query(sql, values).first?.first.flatMap { $0 } ?? "0") ?? 0
        }
        cacheSize = try integer(HistorySQL.cacheSize)
        seqBefore = try integer(HistorySQL.largestFetchSeq)
        let limit = ImportBatch.deferIndexesBelow
        guard try integer(HistorySQL.fetchCountUpTo, [limit]) < limit else { return }
        for index in try query(HistorySQL.fetchIndexes, []) {
            before.append(HistorySQL.dropIndex(index[0] ?? ""))
            after.append(index[1] ?? "")
        }
    }
}
