import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@_spi(Benchmarks) @testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// A history written by the release before schema 5 (version 4), upgraded
/// in place by opening it: every fetch, every field and every replay stays.
@MainActor @Suite struct SchemaUpgradeTests {
    nonisolated static let version4 = Migrator(migrations: Array(Migration.embedded.prefix(4)))

    /// A source with HTTP responses whose calls the test answers.
    actor AnswerStub: APIClient {
        let stub = ContinuationStub<Void, SourceAnswer<Int>>()
        func fetchAnswer() async throws -> SourceAnswer<Int> { try await stub.call(()) }
        func fetchRandomNumber() async throws -> Int { try await fetchAnswer().value }
    }

    struct HTTPFailure: Error, LocalizedError, SourceResponseError {
        var message: String
        var response: SourceResponse?
        var errorDescription: String? { message }
    }

    /// Records, into a new version-4 database at `path`, a session driven
    /// through the view state with every way a fetch ends (an answer and a
    /// failure with their HTTP status and size, a cancel, a double tap in one
    /// millisecond, a timeout), then fetches left interrupted, running and
    /// stored as interrupted. Returns the replayable session.
    static func writeVersion4History(at path: String) async throws -> Session {
        let store = try HistoryStore(path: path, access: .create, migrator: version4)
        // Today's recording numbers fetches above the largest `seq` ever
        // deleted (schema 7), which schema 4 does not keep: an empty one, on
        // this connection only, leaves the file as schema 4 made it.
        try await store.write { db in
            try db.execute("CREATE TEMP TABLE fetch_seq_high_water (only_row INTEGER PRIMARY KEY, seq INTEGER NOT NULL)")
        }
        // It also writes each fetch's host (schema 8) and a failed answer's
        // body (schema 11): columns added for the recording and dropped after
        // it, leaving the table as schema 4 made it.
        let added = ["host TEXT NOT NULL DEFAULT ''", "response_body TEXT", "response_content_type TEXT", "response_body_truncated INTEGER"]
        try await store.write { db in for column in added { try db.execute("ALTER TABLE fetch ADD COLUMN \(column)") } }
        defer {
            try? store.write { db in
                for column in added { try db.execute("ALTER TABLE fetch DROP COLUMN \(column.prefix { $0 != " " })") }
            }
        }
        let recorder = try await HistoryRecorder(
            store: store, source: "http://127.0.0.1:8080/n", startedAt: Timestamp(millisecondsSince1970: 1_763_800_000_000)
        )
        let client = AnswerStub()
        let clock = ManualClock()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(1))
        func settle() async throws { _ = try? await withTimeout { try await viewState.fetchTask?.value } }

        viewState.fetchButtonTapped()
        try await client.stub.waitUntilCalled(times: 1)
        clock.advance(by: .milliseconds(150))
        await client.stub.resume(returning: SourceAnswer(value: 42, response: SourceResponse(status: 200, bytes: 3)))
        try await settle()

        clock.advance(by: .milliseconds(500))
        viewState.fetchButtonTapped()
        try await client.stub.waitUntilCalled(times: 2)
        clock.advance(by: .milliseconds(20))
        await client.stub.resume(throwing: HTTPFailure(message: "HTTP 503", response: SourceResponse(status: 503, bytes: 19)))
        try await settle()

        clock.advance(by: .milliseconds(500))
        viewState.fetchButtonTapped()
        try await client.stub.waitUntilCalled(times: 3)
        clock.advance(by: .milliseconds(30))
        viewState.cancelButtonTapped()
        try await settle()

        // A double tap: two fetches started in one millisecond, the first
        // superseded by the second, which answers without a response.
        clock.advance(by: .milliseconds(500))
        viewState.fetchButtonTapped()
        try await client.stub.waitUntilCalled(times: 4)
        viewState.fetchButtonTapped()
        try await client.stub.waitUntilCalled(times: 5)
        clock.advance(by: .milliseconds(30))
        await client.stub.resume(returning: SourceAnswer(value: 9))
        try await settle()

        clock.advance(by: .milliseconds(500))
        viewState.fetchButtonTapped()
        try await client.stub.waitUntilCalled(times: 6)
        try await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        try await settle()

        // A recorder that died mid-fetch, a live one still fetching, and a
        // fetch stored as interrupted (as an import stores one).
        try await store.write { db in
            var dead = ProcessIdentity.current
            dead.processID = Int32.max
            let crashed = try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_763_800_100_000), process: dead)
            try db.recordStart(of: UUID(), in: crashed, at: Timestamp(millisecondsSince1970: 1_763_800_100_010), timeout: .seconds(5))
            let live = try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_763_800_200_000))
            try db.recordStart(of: UUID(), in: live, at: Timestamp(millisecondsSince1970: 1_763_800_200_010))
            let stored = UUID()
            try db.recordStart(of: stored, in: live, at: Timestamp(millisecondsSince1970: 1_763_800_200_020))
            try db.recordEnd(
                of: stored, at: Timestamp(millisecondsSince1970: 1_763_800_200_090), duration: .milliseconds(70),
                outcome: .interrupted, cause: .cancelTap
            )
        }
        return recorder.session
    }

    /// The export as version 4's `export` wrote it: its query (ordered by
    /// the table's rowid), each record written by the export's writer.
    nonisolated static func exportOfVersion4(_ db: Database) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try db.forEachRow("SELECT \(version4Columns) FROM fetch ORDER BY started_at, rowid") { row in
            FetchJSON.append(try HistoryRow.fetch(row), to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Today's columns of a fetch, read from a version-4 table: the host
    /// (schema 8) is its session's, which the upgrade copies into it; a
    /// failed answer's body (schema 11) was not kept.
    nonisolated static let version4Columns = StoredFetch.Column.allCases.map { column -> String in
        switch column {
        case .host: "(SELECT host FROM session WHERE session.id = fetch.session_id)"
        case .responseBody, .responseContentType, .responseBodyTruncated: "NULL"
        default: column.name
        }
    }.joined(separator: ", ") + ", " + HistorySQL.isAlive

    /// The export as this version writes it.
    static func export(_ store: HistoryStore) throws -> [UInt8] {
        // The synchronous read: the closure appends to a local buffer.
        var bytes: [UInt8] = []
        try store.read { db in
            try db.forEachFetch { fetch in
                FetchJSON.append(fetch, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
        }
        return bytes
    }

    /// Every stored value of both tables, by column name, in rowid order,
    /// each with its type (`quote()`: 5 and '5' differ).
    nonisolated static let storedColumns = [
        "fetch": [
            "rowid", "id", "session_id", "source", "started_at", "ended_at", "duration_ms", "outcome", "cancel_reason",
            "value", "error", "http_status", "response_bytes", "tapped_at", "timeout_ms", "ended_by", "ended_by_at",
            "answer_value", "answer_error",
        ],
        "session": ["rowid", "id", "started_at", "source", "host", "process_id", "boot_id", "process_started"],
    ]

    nonisolated static func storedValues(_ db: Database) throws -> [String: [[String]]] {
        try storedColumns.mapValues { _ in [] }.reduce(into: [:]) { values, entry in
            let (table, columns) = (entry.key, storedColumns[entry.key]!)
            let sql = "SELECT " + columns.map { "quote(\($0))" }.joined(separator: ", ") + " FROM \(table) ORDER BY rowid"
            values[table] = try db.rows(sql) { row in (0..<Int32(columns.count)).map { row.text($0) } }
        }
    }

    @Test func openingForReadingUpgradesAWritableHistoryAndRefusesAReadOnlyOneSayingHow() throws {
        // Given two histories written by the release before schema 5, one of them read-only, and no file at a third path
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writable = folder.appending(path: "writable.sqlite").path
        let readOnly = folder.appending(path: "read-only.sqlite").path
        for path in [writable, readOnly] { _ = try HistoryStore(path: path, access: .create, migrator: Self.version4) }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)

        // When each is opened for reading
        let upgraded = Result { try HistoryStore.openForReading(path: writable) }
        let refused = Result { try HistoryStore.openForReading(path: readOnly) }
        let missing = Result { try HistoryStore.openForReading(path: folder.appending(path: "none.sqlite").path) }

        // Then the writable one was upgraded in place, the read-only one refused with how to upgrade it, and the missing one not created
        _ = try upgraded.get()
        try Migrator().verify(Database(path: writable, access: .readOnly))
        let latest = Migration.embedded.count
        #expect(throws: HistoryError.cannotOpen(path: readOnly, reason: .needsUpgrade(found: 4, supported: latest))) { try refused.get() }
        #expect(throws: HistoryError.cannotOpen(path: folder.appending(path: "none.sqlite").path, reason: .missing)) { try missing.get() }
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "none.sqlite").path))
    }

    @Test func aVersion4HistoryUpgradesKeepingEveryFieldAndReplaysAsBefore() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path

        // Given a history written by schema version 4, its export, stored
        // values and replay as that version read them
        let session = try await Self.writeVersion4History(at: path)
        let old = try HistoryStore(path: path, access: .readWrite, migrator: Self.version4)
        let exportBefore = try await old.read { db in try Self.exportOfVersion4(db) }
        let valuesBefore = try await old.read { db in try Self.storedValues(db) }
        let recordedBefore = try await old.read { db in
            try db.rows(
                "SELECT \(Self.version4Columns) FROM fetch WHERE session_id = ? ORDER BY started_at, rowid",
                [.text(session.id.lowercased)], HistoryRow.fetch
            )
        }
        let replayBefore = try await SessionReplay(fetches: recordedBefore, origin: session.startedAt).run()
        #expect(try await old.read { db in try db.scalarInt64("PRAGMA user_version") } == 4)
        #expect(replayBefore.matches, "\(replayBefore.differences)")
        #expect(replayBefore.fetchCount == 6)

        // When this version opens it
        let store = try HistoryStore(path: path, access: .readWrite)

        // Then it is at the latest version, and every fetch, field and
        // export byte is as it was, in the same order
        #expect(try await store.read { db in try db.scalarInt64("PRAGMA user_version") } == Int64(Migrator().latestVersion))
        let exportAfter = try Self.export(store)
        #expect(String(decoding: exportAfter, as: UTF8.self) == String(decoding: exportBefore, as: UTF8.self))
        #expect(try await store.read { db in try Self.storedValues(db) } == valuesBefore)
        #expect(valuesBefore["fetch"]?.count == 9)
        let statuses = try await store.read { db in try db.fetches() }.map(\.status)
        #expect(Set(statuses) == Set(FetchStatus.allCases))

        // and the session replays exactly as before
        let recordedAfter = try await store.read { db in
            var fetches: [Fetch] = []
            try db.forEachFetch(matching: HistoryFilter(sessionID: session.id)) { fetches.append($0) }
            return fetches
        }
        let replayAfter = try await SessionReplay(fetches: recordedAfter, origin: session.startedAt).run()
        #expect(replayAfter == replayBefore)
        #expect(try await store.read { db in try db.scalarText("PRAGMA integrity_check") } == "ok")
    }

    /// Which of `candidates` the `fetch` table of `migrator`'s schema
    /// accepts in `column` (the other columns made consistent with it).
    nonisolated static func accepted(_ candidates: [String?], in column: String, by migrator: Migrator) throws -> [String?] {
        let db = try Database(path: ":memory:", access: .create)
        try migrator.migrate(db)
        try db.execute("INSERT INTO session (id, started_at, source, host, process_id) VALUES ('s', 0, 'random', 'h', 1)")
        return try candidates.enumerated().filter { number, candidate in
            let outcome = column == "outcome" ? candidate : column == "cancel_reason" ? "cancelled" : nil
            let values: [SQLValue] = [
                .text("f\(number)"), .text(outcome), .integer(outcome == "succeeded" ? 1 : nil),
                .text(column == "cancel_reason" ? candidate : outcome == "cancelled" ? "user" : nil),
                .text(column == "ended_by" ? candidate : nil),
            ]
            do {
                try db.execute("""
                    INSERT INTO fetch (id, session_id, source, started_at, outcome, value, cancel_reason, ended_by)
                    VALUES (?, 's', 'random', 0, ?, ?, ?, ?)
                    """, values)
                return true
            } catch let error as SQLiteError where error.code & 0xFF == 19 {  // SQLITE_CONSTRAINT
                return false
            }
        }.map(\.element)
    }

    @Test(arguments: [
        ("outcome", ["succeeded", "failed", "cancelled", "timed-out", "interrupted"], ["running", "timed_out", "", "failed "]),
        ("cancel_reason", ["user", "superseded"], ["timeout", ""]),
        ("ended_by", ["answer", "failure", "cancel", "fetch", "timeout"], ["answered", "cancelled", ""]),
    ])
    nonisolated func theChecksWithoutInListsAcceptExactlyWhatVersion4Accepted(
        column: String, allowed: [String], refused: [String]
    ) throws {
        // Given every allowed value, NULL, and values close to the allowed
        // ones (each allowed one capitalised among them)
        let candidates: [String?] = allowed + allowed.map(\.capitalized) + refused + [nil]

        // When each is written in that column, by version 4's schema and by this one
        let before = try Self.accepted(candidates, in: column, by: Self.version4)
        let now = try Self.accepted(candidates, in: column, by: Migrator())

        // Then the same ones are accepted: the allowed ones, and NULL where
        // the other checks let it through (an outcome, an end cause)
        #expect(now == before)
        #expect(now == allowed + (column == "cancel_reason" ? [] : [nil]))
    }
}
