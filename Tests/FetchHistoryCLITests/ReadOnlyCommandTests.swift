import FetchHistory
import Foundation
import Testing

@Suite("list, show, stats, export and sessions only read; prune and delete create nothing")
struct ReadOnlyCommandTests {
    static let readers: [[String]] = [
        ["list"], ["list", "--format", "json"], ["show", "0123"], ["stats"], ["export"], ["export", "--format", "jsonl"],
        ["sessions"],
    ]

    @Test(arguments: readers)
    func aReaderOnAMissingDatabaseFailsAndCreatesNothing(_ command: [String]) async throws {
        // Given a database path in a folder that does not exist
        let sandbox = try Sandbox()
        let path = sandbox.path("nowhere/history.sqlite")

        // When a reading command runs on it
        let result = try await sandbox.run(command + ["--database", path])

        // Then it exits 1 saying there is no history there, and creates neither file nor folder
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:"), "\(result)")
        #expect(result.standardError.contains("no history at \(path)"), "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("nowhere")))
    }

    @Test(arguments: readers)
    func aReaderOnTheMissingDefaultDatabaseCreatesNothingUnderHome(_ command: [String]) async throws {
        // Given no database anywhere, and none named
        let sandbox = try Sandbox()

        // When a reading command runs with the default location
        let result = try await sandbox.run(command, environment: sandbox.environment(.unset))

        // Then $HOME stays empty, and standard error has the first-run hint, naming where the history will be
        #expect(result.standardError.contains("no history yet (it will be at \(sandbox.home.path)/.local/share/fetch-history/history.sqlite)"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home.path).isEmpty)
    }

    @Test(arguments: [
        (["list"], ""), (["list", "--format", "json"], "[]\n"), (["export"], "[]\n"), (["export", "--format", "jsonl"], ""),
        (["sessions"], ""), (["sessions", "--format", "json"], "[]\n"),
    ])
    func onAFirstRunAReaderPrintsAnEmptyResultAndOneHint(_ command: [String], _ output: String) async throws {
        // Given a new machine: no history at the default place, none named
        let sandbox = try Sandbox()

        // When a reading command runs
        let result = try await sandbox.run(command, environment: sandbox.environment(.unset))

        // Then it prints an empty result, one hint on standard error, and exits 0
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == output, "\(result)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result)")
        #expect(result.standardError.hasSuffix("record the first fetch with `fetch-history fetch`\n"), "\(result)")
    }

    @Test func onAFirstRunStatsCountsNothing() async throws {
        // Given a new machine
        let sandbox = try Sandbox()

        // When stats runs, as text and as JSON
        let text = try await sandbox.run(["stats"], environment: sandbox.environment(.unset))
        let json = try await sandbox.run(["stats", "--format", "json"], environment: sandbox.environment(.unset))

        // Then both succeed with zero fetches
        #expect(text.status == 0 && text.lines.first == "fetches       0", "\(text)")
        #expect(json.status == 0 && json.standardOutput.contains("\"total\":0"), "\(json)")
    }

    @Test func aDatabaseNamedByTheEnvironmentThatIsMissingIsAnError() async throws {
        // Given FETCH_HISTORY_DB naming a file that does not exist
        let sandbox = try Sandbox()
        let path = sandbox.path("named.sqlite")

        // When list runs
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.path(path)))

        // Then it is an error, as with --database: the user named a history that is not there
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: no history at \(path); check the path, or record one there with `fetch-history fetch --database \(path)`\n", "\(result)")
    }

    @Test func readersWorkOnAReadOnlyDatabaseAndLeaveItAsItWas() async throws {
        // Given the standard history in a file made read-only after it was written
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.database)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))

        // When every reading command runs on it
        let list = try await sandbox.run("list", "--limit", "0", "--format", "jsonl")
        let show = try await sandbox.run("show", Ids.fetch(9))
        let stats = try await sandbox.run("stats", "--format", "json")
        let export = try await sandbox.run("export", "--format", "jsonl")
        let sessions = try await sandbox.run("sessions", "--format", "jsonl")

        // Then each works, and the file's bytes and mode are unchanged
        // (as root the mode does not stop writes, so the unchanged bytes are what prove reading only)
        #expect(list.status == 0 && list.lines.count == Fixtures.standard.count, "\(list)")
        #expect(show.status == 0 && show.standardOutput.contains(Ids.fetch(9)), "\(show)")
        #expect(stats.status == 0, "\(stats)")
        #expect(try StatsCommandTests.Expected(json: stats.standardOutputData) == StatsCommandTests.Expected(Fixtures.standard))
        #expect(export.status == 0, "\(export)")
        #expect(try export.lines.map(ExportRecord.init(jsonLine:)) == ExportRecord.oldestFirst(Fixtures.standard.map(Fixtures.asRead)))
        #expect(sessions.status == 0, "\(sessions)")
        #expect(try sessions.lines.map(Self.id(ofJSONLine:)) == [Ids.session(3), Ids.session(2), Ids.session(1)], "\(sessions)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == bytes)
        #expect(try permissions(sandbox.database) == 0o444)
    }

    /// The `id` of one line of `sessions --format jsonl`.
    static func id(ofJSONLine line: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        return try #require(object["id"] as? String, "\(line)")
    }

    /// A history written by the first schema, with one session and one finished fetch (value 42).
    static func firstSchemaHistory(at path: String) throws {
        let old = try Database(path: path, access: .create)
        try Migrator(migrations: Array(Migration.embedded.prefix(1))).migrate(old)
        try old.execute("INSERT INTO session VALUES ('01234567-0000-4000-8000-000000000001', 0, 'random', 'h', 1, NULL, NULL)")
        try old.execute("""
            INSERT INTO fetch (id, session_id, source, started_at, ended_at, duration_ms, outcome, value)
            VALUES ('01234567-0000-4000-8000-000000000002', '01234567-0000-4000-8000-000000000001', 'random', 5, 105, 100, 'succeeded', 42)
            """)
    }

    @Test(arguments: readers)
    func aReaderUpgradesAWritableHistoryOfAnOlderSchemaOnceAndReadsIt(_ command: [String]) async throws {
        // Given a history written by the first schema, with one finished fetch
        let sandbox = try Sandbox()
        try Self.firstSchemaHistory(at: sandbox.database)

        // When a reading command runs on it
        let result = try await sandbox.run(command)

        // Then it works, on a file now at the latest schema version, its fetch intact
        #expect(result.status == 0, "\(result)")
        #expect(try Database(path: sandbox.database, access: .readOnly).scalarInt64("PRAGMA user_version") == Int64(Migrator().latestVersion))
        let export = try await sandbox.run("export", "--format", "jsonl")
        #expect(export.lines.count == 1 && export.standardOutput.contains(#""value":42"#), "\(export)")
    }

    @Test(arguments: readers)
    func aReaderLeavesAReadOnlyHistoryOfAnOlderSchemaAsItIsAndSaysHowToUpgradeIt(_ command: [String]) async throws {
        // Given a history written by the first schema, made read-only
        let sandbox = try Sandbox()
        try Self.firstSchemaHistory(at: sandbox.database)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.database)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))

        // When a reading command runs on it
        let result = try await sandbox.run(command)

        // Then it exits 1 saying what the file needs and how to get it, and the file is as it was
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: \(sandbox.database) has schema version 1 and needs upgrading to \(Migrator().latestVersion), "
            + "but it is read-only; make it writable once so fetch-history can upgrade it\n", "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == bytes)
        #expect(try permissions(sandbox.database) == 0o444)
    }

    @Test(arguments: [(["prune", "--keep", "0"], "prune"), (["delete", "0123"], "delete")])
    func pruneOrDeleteOnAMissingDatabaseSaysThereIsNothingToDoAndCreatesNothing(_ command: [String], verb: String) async throws {
        // Given a database path in a folder that does not exist
        let sandbox = try Sandbox()
        let path = sandbox.path("nowhere/history.sqlite")

        // When a command that deletes runs on it
        let result = try await sandbox.run(command + ["--database", path])

        // Then it exits 1 saying there is nothing to do, and creates neither file nor folder
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: no history at \(path); nothing to \(verb)\n", "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("nowhere")))
    }

    @Test(arguments: readers + [["fetch", "--latency", "0"], ["import", "-"]])
    func aFileThatIsNotAHistoryIsRefusedAndLeftUntouched(_ command: [String]) async throws {
        // Given a text file where the database should be
        let sandbox = try Sandbox()
        let contents = Data("these are my notes, not a database\n".utf8)
        try contents.write(to: URL(fileURLWithPath: sandbox.database))

        // When any command runs on it
        let result = try await sandbox.run(command, stdin: Data())

        // Then it exits 1 naming the file, and the file is as it was
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:") && result.standardError.contains(sandbox.database), "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == contents)
    }
}
