import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

@Suite struct MigrationTests {
    @Test func migrationsAreNumberedFromOneWithoutGaps() {
        let versions = Migration.embedded.map(\.version)
        #expect(!versions.isEmpty)
        #expect(versions == Array(1...versions.count))
    }

    @Test func noMigrationManagesItsOwnTransaction() {
        // The migrator wraps each file in BEGIN IMMEDIATE … COMMIT; a file's
        // own COMMIT would end that transaction half-way.
        let forbidden = ["BEGIN", "COMMIT", "END TRANSACTION", "ROLLBACK", "SAVEPOINT", "RELEASE"]
        for migration in Migration.embedded {
            let words = migration.sql
                .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
                .joined(separator: " ").uppercased()
            for word in forbidden {
                #expect(!words.contains("\(word) ") && !words.contains("\(word);"), "migration \(migration.version) contains \(word)")
            }
        }
    }

    @Test func everyFileInMigrationsIsEmbedded() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        let embedded = Migration.embedded.map { String(format: "%04d_%@.sql", $0.version, $0.name) }
        #expect(files == embedded)
        for migration in Migration.embedded {
            let file = folder.appending(path: String(format: "%04d_%@.sql", migration.version, migration.name))
            #expect(try String(contentsOf: file, encoding: .utf8) == migration.sql)
        }
    }

    @Test func aNewDatabaseIsMigratedToTheLatestVersion() throws {
        let database = try Database(path: ":memory:", access: .create)
        try Migrator().migrate(database)
        #expect(try database.scalarInt64("PRAGMA user_version") == Int64(Migrator().latestVersion))
        #expect(try database.scalarInt64("PRAGMA application_id") == Migrator.applicationID)
        #expect(try database.scalarInt64("SELECT count(*) FROM sqlite_schema WHERE name = 'fetch'") == 1)
    }

    @Test func aCurrentDatabaseIsLeftAsItIs() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        let store = try HistoryStore(path: path, access: .create)
        _ = try store.write { db in try db.beginSession(source: "random") }
        let before = try Database(path: path, access: .readOnly).scalarInt64("PRAGMA schema_version")

        _ = try HistoryStore(path: path, access: .readWrite)

        let after = try Database(path: path, access: .readOnly)
        #expect(try after.scalarInt64("PRAGMA schema_version") == before)
        #expect(try after.scalarInt64("SELECT count(*) FROM session") == 1)
    }

    @Test func eachStepRunsOnceAndLaterStepsApplyToAnOlderDatabase() throws {
        let first = Migration(version: 1, name: "one", sql: "CREATE TABLE t (a INTEGER) STRICT;")
        let second = Migration(version: 2, name: "two", sql: "ALTER TABLE t ADD COLUMN b INTEGER;")
        let database = try Database(path: ":memory:", access: .create)
        try database.execute("PRAGMA application_id = \(Migrator.applicationID)")
        try Migrator(migrations: [first]).migrate(database)
        try database.execute("INSERT INTO t (a) VALUES (1)")

        try Migrator(migrations: [first, second]).migrate(database)

        #expect(try database.scalarInt64("PRAGMA user_version") == 2)
        #expect(try database.scalarInt64("SELECT count(*) FROM t WHERE a = 1 AND b IS NULL") == 1)
    }

    @Test func aFailingStepRollsBackAndKeepsTheVersion() throws {
        let latest = Migration.embedded.count
        let broken = Migration(version: latest + 1, name: "broken", sql: "CREATE TABLE u (a); INSERT INTO nowhere VALUES (1);")
        let database = try Database(path: ":memory:", access: .create)
        try Migrator().migrate(database)

        #expect(throws: SQLiteError.self) {
            try Migrator(migrations: Migration.embedded + [broken]).migrate(database)
        }
        #expect(try database.scalarInt64("PRAGMA user_version") == Int64(latest))
        #expect(try database.scalarInt64("SELECT count(*) FROM sqlite_schema WHERE name = 'u'") == 0)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedAndUntouched() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        _ = try HistoryStore(path: path, access: .create)
        try Database(path: path, access: .readWrite).execute("PRAGMA user_version = 99")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        #expect {
            try HistoryStore(path: path, access: .readWrite)
        } throws: { error in
            "\(error)".contains("newer fetch-history") && "\(error)".contains(path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aDatabaseOfAnotherApplicationIsRefused() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "other.sqlite").path
        try Database(path: path, access: .create).execute("CREATE TABLE contacts (name TEXT)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        #expect {
            try HistoryStore(path: path, access: .readWrite)
        } throws: { error in
            "\(error)".contains("another application")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndUntouched() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "notes.txt").path
        let bytes = Data("These are my notes, not a database.\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))

        #expect {
            try HistoryStore(path: path, access: .create)
        } throws: { error in
            "\(error)".contains("not a SQLite database")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func twoConnectionsOpeningANewFileAtOnceBothSucceed() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try HistoryStore(path: path, access: .create) }
            }
            try await group.waitForAll()
        }

        let database = try Database(path: path, access: .readOnly)
        #expect(try database.scalarInt64("PRAGMA user_version") == Int64(Migrator().latestVersion))
    }

    @Test func aNewFileIsReadableOnlyByItsOwner() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        let store = try HistoryStore(path: path, access: .create)
        _ = try store.write { db in try db.beginSession(source: "random") }

        for file in [path, path + "-wal", path + "-shm"] {
            let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(permissions == 0o600, "\(file)")
        }
    }
}

extension MigrationTests {
    /// Writes a database of the first schema at `path`, holding one
    /// finished fetch, `00000000-0000-0000-0000-000000000002`, and closes it.
    static func writeVersionOneDatabase(at path: String) throws {
        let old = try Database(path: path, access: .create)
        try Migrator(migrations: Array(Migration.embedded.prefix(1))).migrate(old)
        try old.execute("INSERT INTO session VALUES ('00000000-0000-0000-0000-000000000001', 0, 'random', 'h', 1, NULL, NULL)")
        try old.execute("""
            INSERT INTO fetch (id, session_id, source, started_at, ended_at, duration_ms, outcome, value)
            VALUES ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001', 'random', 5, 105, 100, 'succeeded', 42)
            """)
    }

    @Test func aVersionOneDatabaseUpgradesInPlaceKeepingEveryRow() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        // Given a database written by the first schema, with a finished fetch
        try Self.writeVersionOneDatabase(at: path)

        // When the current tool opens it
        let store = try HistoryStore(path: path, access: .readWrite)

        // Then it is migrated and the row reads back unchanged, with no HTTP data
        let fetch = try store.read { db in try db.fetch(idPrefix: "00000000-0000-0000-0000-000000000002") }
        #expect(fetch.outcome == .succeeded(42))
        #expect(fetch.durationMilliseconds == 100)
        #expect(fetch.response == nil)
        #expect(try Database(path: path, access: .readOnly).scalarInt64("PRAGMA user_version") == Int64(Migrator().latestVersion))
    }

    @Test func readOnlyNeverWritesEvenAWritableOlderDatabaseWhichAWriterUpgrades() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        // Given a writable database written by the first schema
        try Self.writeVersionOneDatabase(at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        // When it is opened read-only, it is refused as needing an upgrade, and left as it was
        #expect(throws: HistoryError.cannotOpen(path: path, reason: .needsUpgrade(found: 1, supported: Migrator().latestVersion))) {
            try HistoryStore(path: path, access: .readOnly)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // When it is opened for writing, it is upgraded in place, and its fetch reads back
        let store = try HistoryStore(path: path, access: .readWrite)
        #expect(try store.read { db in try db.fetch(idPrefix: "00000000-0000-0000-0000-000000000002") }.outcome == .succeeded(42))
        #expect(try Database(path: path, access: .readOnly).scalarInt64("PRAGMA user_version") == Int64(Migrator().latestVersion))
    }

    @Test func aReaderOnAnOlderReadOnlyDatabaseAsksForWritePermissionAndLeavesItAsItWas() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        // Given a database written by the first schema, made read-only (0444)
        try Self.writeVersionOneDatabase(at: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        // When a reader opens it
        // Then it is refused, saying it needs upgrading and how, even for root
        // (who may write anyway), and the file is left as it was
        #expect(throws: HistoryError.cannotOpen(path: path, reason: .needsUpgrade(found: 1, supported: Migrator().latestVersion))) {
            try HistoryStore(path: path, access: .readOnly)
        }
        #expect(throws: HistoryError.cannotOpen(path: path, reason: .readOnly)) {
            try HistoryStore(path: path, access: .readWrite)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["history.sqlite"])
    }

    @Test func aReaderOnAnEmptyFileSaysItHoldsNoHistoryAndLeavesItEmpty() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        // Given an empty, writable file where the history should be
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))

        // When a reader opens it
        // Then it is refused as holding no history, and reading has not turned
        // it into a database
        #expect(throws: HistoryError.cannotOpen(path: path, reason: .empty)) {
            try HistoryStore(path: path, access: .readOnly)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["history.sqlite"])
    }
}

extension MigrationTests {
    @Test func aMigrationThatLeavesDanglingRowsIsRolledBackWithItsNumber() throws {
        // Given a new database and a migration whose row points at a missing parent
        // (deferred, so only the migrator's own check finds it before the commit)
        let database = try Database(path: ":memory:", access: .create)
        let dangling = Migration(version: 1, name: "dangling", sql: """
            PRAGMA application_id = \(Migrator.applicationID);
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
            INSERT INTO child VALUES (7);
            """)

        // When it is applied
        // Then it is refused, naming the migration and the table, and nothing of it stays
        #expect(throws: MigrationError.foreignKeyViolation(migration: 1, table: "child")) {
            try Migrator(migrations: [dangling]).migrate(database)
        }
        #expect(try database.scalarInt64("PRAGMA user_version") == 0)
        #expect(try database.scalarInt64("SELECT count(*) FROM sqlite_schema") == 0)
    }

    @Test func schemaEightGivesEachFetchItsSessionsHost() throws {
        // Given a history of schema 7 with a fetch in each of two sessions of two hosts
        let database = try Database(path: ":memory:", access: .create)
        try Migrator(migrations: Array(Migration.embedded.prefix(7))).migrate(database)
        for (session, host) in [("s1", "ci-1"), ("s2", "probe-3")] {
            try database.execute(
                "INSERT INTO session (id, started_at, source, host, process_id) VALUES (?, 0, 'random', ?, 0)",
                [.text(session), .text(host)]
            )
            try database.execute(
                "INSERT INTO fetch (id, session_id, source, started_at) VALUES (?, ?, 'random', 0)", [.text("f-" + session), .text(session)]
            )
        }

        // When it is brought up to date
        try Migrator().migrate(database)

        // Then each fetch carries its session's host
        #expect(try database.rows("SELECT id, host FROM fetch ORDER BY id") { "\($0.text(0)) \($0.text(1))" } == ["f-s1 ci-1", "f-s2 probe-3"])
    }

    @Test func schemaTenKeepsEveryRowAndIndexAndAcceptsATerminatedCancel() throws {
        // Given a history of schema 9 with a fetch of every kind: values as integers and as JSON
        // text, HTTP fields, scripts, hosts, and numbers (`seq`) with gaps a deletion left
        let database = try Database(path: ":memory:", access: .create)
        try Migrator(migrations: Array(Migration.embedded.prefix(9))).migrate(database)
        try database.execute("INSERT INTO session (id, started_at, source, host, process_id) VALUES ('s1', 0, 'random', 'ci-1', 7)")
        let rows: [[SQLValue]] = [
            [.integer(3), .text("f1"), .text("succeeded"), .null, .integer(42), .null, .text("answer"), .integer(42), .text("ci-1")],
            [.integer(8), .text("f2"), .text("succeeded"), .null, .text(#"{"n":3.5}"#), .null, .text("answer"), .text(#"{"n":3.5}"#), .text("")],
            [.integer(9), .text("f3"), .text("failed"), .null, .null, .text("HTTP 503"), .text("failure"), .null, .text("ci-1")],
            [.integer(20), .text("f4"), .text("cancelled"), .text("superseded"), .null, .null, .text("fetch"), .null, .text("probe")],
            [.integer(21), .text("f5"), .text("cancelled"), .text("user"), .null, .null, .text("cancel"), .null, .text("probe")],
        ]
        for row in rows {
            try database.execute(
                """
                INSERT INTO fetch (seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
                                   http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, host)
                VALUES (?, ?, 's1', 'random', 100, 150, 50, ?, ?, ?, ?, 200, 12, 100, 1000, ?, 150, ?, ?)
                """,
                row
            )
        }
        let dump = """
            SELECT json_array(seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, typeof(value), value,
                              error, http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, typeof(answer_value),
                              answer_value, answer_error, host)
            FROM fetch ORDER BY seq
            """
        let indexes = "SELECT name || ': ' || sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'fetch' AND sql IS NOT NULL ORDER BY name"
        let before = try database.rows(dump) { $0.text(0) }
        let indexesBefore = try database.rows(indexes) { $0.text(0) }
        let refused = """
            INSERT INTO fetch (id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason)
            VALUES ('f6', 's1', 'random', 200, 250, 50, 'cancelled', 'terminated')
            """
        #expect(throws: SQLiteError.self) { try database.execute(refused) }

        // When it is brought up to date
        try Migrator().migrate(database)

        // Then every row is as it was, number included, the indexes are the same, and a fetch
        // cancelled because its program was told to stop can be written, while other reasons cannot
        #expect(try database.rows(dump) { $0.text(0) } == before)
        #expect(before.count == rows.count)
        #expect(try database.rows(indexes) { $0.text(0) } == indexesBefore)
        #expect(indexesBefore.count == 5, "\(indexesBefore)")
        try database.execute(refused)
        #expect(throws: SQLiteError.self) {
            try database.execute("""
                INSERT INTO fetch (id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason)
                VALUES ('f7', 's1', 'random', 200, 250, 50, 'cancelled', 'stopped')
                """)
        }
        #expect(try database.scalarText("PRAGMA foreign_key_check") == nil)
    }

    @Test func schemaElevenKeepsEveryRowAndRecordsAFailedAnswersBody() throws {
        // Given a history file of schema 10 with fetches of every kind, HTTP fields and numbers with gaps among them
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        let dump = """
            SELECT json_array(seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, typeof(value), value,
                              error, http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, typeof(answer_value),
                              answer_value, answer_error, host)
            FROM fetch ORDER BY seq
            """
        let before: [String]
        do {
            let database = try Database(path: path, access: .create)
            try Migrator(migrations: Array(Migration.embedded.prefix(10))).migrate(database)
            try database.execute("""
                INSERT INTO session (id, started_at, source, host, process_id)
                VALUES ('00000000-0000-4000-8000-00000000000a', 0, 'http://h/n', 'ci-1', 7)
                """)
            let rows: [[SQLValue]] = [
                [.integer(3), .text("00000000-0000-4000-8000-000000000001"), .text("succeeded"), .null, .integer(42), .null, .integer(200)],
                [.integer(8), .text("00000000-0000-4000-8000-000000000002"), .text("succeeded"), .null, .text(#"{"n":3.5}"#), .null, .integer(200)],
                [.integer(9), .text("00000000-0000-4000-8000-000000000003"), .text("failed"), .null, .null, .text("HTTP 503"), .integer(503)],
                [.integer(20), .text("00000000-0000-4000-8000-000000000004"), .text("cancelled"), .text("terminated"), .null, .null, .null],
            ]
            for row in rows {
                try database.execute(
                    """
                    INSERT INTO fetch (seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
                                       http_status, response_bytes, host)
                    VALUES (?, ?, '00000000-0000-4000-8000-00000000000a', 'http://h/n', 100, 150, 50, ?, ?, ?, ?, ?, 12, 'ci-1')
                    """,
                    row
                )
            }
            before = try database.rows(dump) { $0.text(0) }
            #expect(before.count == rows.count)
        }

        // When a writer opens it
        let store = try HistoryStore(path: path, access: .readWrite)

        // Then it is of the latest schema, every row is as it was and keeps no body,
        let after = try Database(path: path, access: .readOnly)
        #expect(try after.scalarInt64("PRAGMA user_version") == Int64(Migrator().latestVersion))
        #expect(try after.rows(dump) { $0.text(0) } == before)
        #expect(try store.read { db in try db.fetch(idPrefix: "00000000-0000-4000-8000-000000000003") }.response
            == SourceResponse(status: 503, bytes: 12))
        // and a failed answer's body is recorded and read back
        let body = ResponseBody(text: #"{"error":"busy","token":"***"}"#, contentType: "application/json", isTruncated: true)
        let id = UUID()
        let recorded = try store.write { db in
            let session = try db.beginSession(source: "http://h/n")
            try db.recordStart(of: id, in: session, at: Timestamp(millisecondsSince1970: 200))
            try db.recordEnd(
                of: id, at: Timestamp(millisecondsSince1970: 300), duration: .milliseconds(100), outcome: .failed("HTTP 503"),
                cause: .failure("HTTP 503"), response: SourceResponse(status: 503, bytes: 4096, body: body)
            )
            return try db.fetch(idPrefix: id.lowercased)
        }
        #expect(recorded.response == SourceResponse(status: 503, bytes: 4096, body: body))
        // and a truncation other than 0 or 1 is refused
        #expect(throws: SQLiteError.self) {
            try Database(path: path, access: .readWrite).execute("UPDATE fetch SET response_body_truncated = 2")
        }
    }
}
