@_spi(Benchmarks) import FetchHistory
import Foundation
import GRDB

/// Recording as the view state does it: one session, then per fetch an
/// INSERT when it starts and an UPDATE when it ends, each in its own
/// `BEGIN IMMEDIATE` transaction, on a WAL database with
/// `synchronous = NORMAL`. Three engines do exactly that on a fresh database
/// that has the project's schema.
enum RecordingEngine: String, CaseIterable {
    /// `beginSession`, then `recordStart` + `recordEnd`, each in its own
    /// `HistoryStore.write` (as `HistoryRecorder` does, without its queue hop).
    case store
    /// The C API, prepared statements reused, UUIDs formatted into a buffer.
    case raw
    /// GRDB 7: cached statements, one `inTransaction(.immediate)` per write.
    case grdb
}

/// One fetch as the recorder sees it.
struct RecordedFetch {
    var id: UUID
    var startedAt: Timestamp
    var endedAt: Timestamp
    var duration: Int64
    var outcome: FetchOutcome
    var cause: FetchEnd.Cause
    var timeout: Int64?
    var response: SourceResponse?

    /// The first `count` fetches of the generated history that end (an
    /// interrupted fetch has no end to record).
    static func generated(count: Int) -> [RecordedFetch] {
        var fetches: [RecordedFetch] = []
        fetches.reserveCapacity(count)
        for fetch in HistoryGenerator(count: count * 2) where fetches.count < count {
            guard let endedAt = fetch.endedAt, let duration = fetch.durationMilliseconds, let outcome = fetch.outcome,
                  let cause = fetch.script?.end?.cause
            else { continue }
            fetches.append(RecordedFetch(
                id: fetch.id, startedAt: fetch.startedAt, endedAt: endedAt, duration: duration, outcome: outcome,
                cause: cause, timeout: fetch.script?.timeoutMilliseconds, response: fetch.response
            ))
        }
        return fetches
    }
}

extension RecordingEngine {
    /// Records `fetches` into the fresh database at `path` (schema already
    /// made) and returns the seconds the loop took, session excluded.
    func record(_ fetches: [RecordedFetch], into path: String) throws -> Double {
        let clock = ContinuousClock()
        let process = ProcessIdentity.current
        let sessionID = UUID()
        let sessionStart = Timestamp(millisecondsSince1970: HistoryGenerator.yearStart)
        switch self {
        case .store:
            let store = try HistoryStore(path: path, access: .readWrite)
            let session = try store.write { db in
                try db.beginSession(id: sessionID, source: "random", at: sessionStart, process: process)
            }
            let start = clock.now
            for fetch in fetches {
                try store.write { db in
                    try db.recordStart(
                        of: fetch.id, in: session, at: fetch.startedAt, timeout: fetch.timeout.map { .milliseconds($0) }
                    )
                }
                try store.write { db in
                    try db.recordEnd(
                        of: fetch.id, at: fetch.endedAt, duration: .milliseconds(fetch.duration), outcome: fetch.outcome,
                        cause: fetch.cause, response: fetch.response
                    )
                }
            }
            return (clock.now - start).seconds

        case .raw:
            let connection = try RawConnection(path: path)
            let begin = try connection.prepare("BEGIN IMMEDIATE")
            let commit = try connection.prepare("COMMIT")
            let insertSession = try connection.prepare(HistorySQL.insertSession)
            let insert = try connection.prepare(HistorySQL.insertFetch)
            let end = try connection.prepare(HistorySQL.endFetch)
            var sessionText = UUIDText()
            sessionText.format(sessionID)
            try begin.run()
            sessionText.bind(to: insertSession, at: 1)
            insertSession.bind(2, sessionStart.millisecondsSince1970)
            insertSession.bind(3, "random")
            insertSession.bind(4, process.host)
            insertSession.bind(5, Int64(process.processID))
            insertSession.bind(6, process.bootID)
            insertSession.bind(7, process.startTicks)
            try insertSession.run()
            try commit.run()

            var idText = UUIDText()
            let start = clock.now
            for fetch in fetches {
                idText.format(fetch.id)
                try begin.run()
                idText.bind(to: insert, at: 1)
                sessionText.bind(to: insert, at: 2)
                insert.bind(3, "random")
                insert.bind(4, fetch.startedAt.millisecondsSince1970)
                insert.bind(5, fetch.timeout)
                try insert.run()
                try commit.run()

                let columns = StoredOutcome(fetch.outcome)
                let cause = fetch.cause
                try begin.run()
                end.bind(1, fetch.endedAt.millisecondsSince1970)
                end.bind(2, fetch.duration)
                end.bind(3, columns.outcome)
                end.bind(4, columns.cancelReason)
                end.bind(5, columns.value)
                end.bind(6, columns.error)
                end.bind(7, fetch.response.map { Int64($0.status) })
                end.bind(8, fetch.response.map { Int64($0.bytes) })
                end.bind(9, cause.name)
                end.bind(10, cause.answerValue)
                end.bind(11, cause.answerError)
                idText.bind(to: end, at: 12)
                try end.run()
                guard connection.changes == 1 else { throw BenchmarkError("raw: fetch not running") }
                try commit.run()
            }
            return (clock.now - start).seconds

        case .grdb:
            let queue = try DatabaseQueue(path: path, configuration: .benchmark)
            let session = BenchmarkIDs.text(of: sessionID)
            try queue.write { db in
                try db.execute(sql: HistorySQL.insertSession, arguments: [
                    session, sessionStart.millisecondsSince1970, "random", process.host, Int64(process.processID),
                    process.bootID, process.startTicks,
                ])
            }
            let start = clock.now
            for fetch in fetches {
                let id = BenchmarkIDs.text(of: fetch.id)
                try queue.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try db.cachedStatement(sql: HistorySQL.insertFetch).execute(arguments: [
                            id, session, "random", fetch.startedAt.millisecondsSince1970, fetch.timeout,
                        ])
                        return .commit
                    }
                }
                let columns = StoredOutcome(fetch.outcome)
                let cause = fetch.cause
                try queue.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try db.cachedStatement(sql: HistorySQL.endFetch).execute(arguments: [
                            fetch.endedAt.millisecondsSince1970, fetch.duration, columns.outcome, columns.cancelReason,
                            columns.value, columns.error, fetch.response.map { Int64($0.status) },
                            fetch.response.map { Int64($0.bytes) }, cause.name, cause.answerValue, cause.answerError, id,
                            fetch.response?.body?.text, fetch.response?.body?.contentType,
                            fetch.response?.body.map { Int64($0.isTruncated ? 1 : 0) },
                        ])
                        guard db.changesCount == 1 else { throw BenchmarkError("grdb: fetch not running") }
                        return .commit
                    }
                }
            }
            return (clock.now - start).seconds
        }
    }
}

extension Configuration {
    /// The store's connection set-up, in GRDB's terms.
    static var benchmark: Configuration {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return configuration
    }
}
