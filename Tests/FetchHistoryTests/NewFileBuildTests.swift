import Foundation
import Testing
@_spi(Benchmarks) @testable import FetchHistoryStore

/// A history built anew (`HistoryStore.buildingNew`) adds its rows with
/// foreign keys unchecked, and checks them all once before it is renamed
/// into place: a row referring to a session that is not there refuses the
/// whole build.
@Suite("a history built anew: its foreign keys checked once")
struct NewFileBuildTests {
    @Test func everyForeignKeyOfTheSchemaIsOneTheBuildChecks() throws {
        // Given a history of the latest schema
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Database(path: folder.appending(path: "history.sqlite").path, access: .create)
        try Migrator().migrate(database)

        // When its foreign keys are listed, table by table
        let declared = try database.rows("""
            SELECT m.name, k."from", k."table", k."to" FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS k
            WHERE m.type = 'table' ORDER BY m.name, k."from"
            """) { row in [row.text(0), row.text(1), row.text(2), row.text(3)] }

        // Then each is a reference to a session that a build checks, and the build checks no other
        let checked = HistorySQL.sessionReferences.map { [$0.table, $0.column, "session", "id"] }
        #expect(declared == checked.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(declared.count == 2)
    }

    /// Rows a build's body writes that refer to a session never written.
    static let danglingRows = [
        "INSERT INTO fetch (id, session_id, source, started_at) VALUES ('f2', 'zz-no-such-session', 'random', 2)",
        "INSERT INTO live_replay (session_id, replay_of) VALUES ('zz-no-such-session', 's1')",
    ]

    @Test(arguments: danglingRows)
    func aRowReferringToASessionNotThereRefusesTheBuildAndLeavesNothing(_ dangling: String) throws {
        // Given no history, and a build that writes a session, a fetch of it and a row referring to no session
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path

        // When the history is built
        let refused = #expect(throws: HistoryError.self) {
            try HistoryStore.buildingNew(at: path) { db in
                try db.execute("INSERT INTO session (id, started_at, source, host, process_id) VALUES ('s1', 1, 'random', 'h', 0)")
                try db.execute("INSERT INTO fetch (id, session_id, source, started_at) VALUES ('f1', 's1', 'random', 1)")
                try db.execute(dangling)
            }
        }

        // Then it is refused as a foreign key broken, and neither the history nor its build is there
        guard case .sqlite(_, let error) = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
        #expect(error.code == 787, "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func rowsReferringToSessionsThatAreThereAreBuilt() throws {
        // Given no history, and a build that writes two sessions, their fetches and a live replay of one
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path

        // When the history is built
        let built = try HistoryStore.buildingNew(at: path) { db in
            for session in ["s1", "s2"] {
                try db.execute("INSERT INTO session (id, started_at, source, host, process_id) VALUES (?, 1, 'random', 'h', 0)", [.text(session)])
            }
            for (fetch, session) in [("f1", "s1"), ("f2", "s2"), ("f3", "s1")] {
                try db.execute("INSERT INTO fetch (id, session_id, source, started_at) VALUES (?, ?, 'random', 1)", [.text(fetch), .text(session)])
            }
            try db.execute("INSERT INTO live_replay (session_id, replay_of) VALUES ('s2', 's1')")
            return try db.scalarInt64("SELECT count(*) FROM fetch")
        }

        // Then it is in place, holding them
        #expect(built == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["history.sqlite"])
    }
}
