import Foundation
import Testing

/// A URL's user info and secret-named parameters never stay in a history:
/// recording stores `http://***:***@host/…`, and `import` and `pull` hide
/// what an older version or another tool let through. The filters still
/// find those sources by their host and their URL without user info.
@Suite("A team history: sources with secrets are hidden and still found", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistorySecretSourceTests {
    /// Fetches 1 and 2 from 127.0.0.1:8080 as recording stores a URL with a
    /// user and password, and with a user alone; 3 from 127.0.0.10, which a
    /// filter for 127.0.0.1 must not find; 4 from `random`. Each in a session of its own.
    static let records: [ExportRecord] = [
        "http://***:***@127.0.0.1:8080/n", "http://***@127.0.0.1:8080/m", "http://127.0.0.10:8080/n", "random",
    ].enumerated().map { index, source in
        ExportRecord.make(
            "succeeded", id: Ids.fetch(index + 1), session: Ids.session(index + 1), source: source,
            at: Fixtures.day0 + Int64(index) * 60_000, host: "ci-1"
        )
    }

    /// Where the history is: the team's server, or a local file, which must find the same.
    enum Place: String, CaseIterable, Sendable { case server, file }

    @Test(arguments: Place.allCases)
    func filtersFindASourceRecordedWithCredentialsByItsHostAndItsURLWithoutThem(place: Place) async throws {
        // Given a team history (or a file) holding fetches whose URLs had credentials, and others
        let team = try await TeamFixture()
        let database: String
        switch place {
        case .server:
            let export = team.sandbox.path("hidden.jsonl")
            try ExportRecord.jsonl(Self.records).write(to: URL(fileURLWithPath: export))
            try await team.succeed(["import", "-d", team.url, export])
            database = team.url
        case .file:
            database = try await team.localFile("hidden.sqlite", Self.records)
        }

        for (source, expected) in [
            ("127.0.0.1", [2, 1]), ("127.0.0.1:8080", [2, 1]), ("http://127.0.0.1:8080/", [2, 1]), ("http://127.0.0.1:8080/n", [1]),
        ] {
            // When the fetches are listed by the host, the host and port, and a URL prefix without user info
            let listed = try await team.sandbox.run("list", "-d", database, "--source", source, "--limit", "0", "--format", "jsonl")

            // Then the fetches from that host are found, with their sources as stored
            #expect(listed.status == 0, "\(listed)")
            #expect(try listed.lines.map { try ExportRecord(jsonLine: $0).id } == expected.map(Ids.fetch), "\(source): \(listed)")
        }

        // When stats and sessions filter by the host
        let stats = try await team.sandbox.run("stats", "-d", database, "--source", "127.0.0.1", "--format", "json")
        let sessions = try await team.sandbox.run("sessions", "-d", database, "--source", "127.0.0.1", "--format", "jsonl")

        // Then stats counts both fetches, and sessions lists both of their sessions and no other
        let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
        #expect(stats.status == 0 && object["total"] as? Int == 2, "\(stats)")
        #expect(sessions.status == 0 && sessions.lines.count == 2, "\(sessions)")
        #expect(sessions.standardOutput.contains(Ids.session(1)) && sessions.standardOutput.contains(Ids.session(2)), "\(sessions)")
    }

    @Test func aPullOfASourceAnOlderVersionStoredWithSecretsBringsItHidden() async throws {
        // Given a team history where an older fetch-history stored a source with a user, a password and a token,
        // in the fetch and in its session
        let team = try await TeamFixture()
        try await team.succeed(["sessions", "-d", team.url])
        let secret = "https://bob:pw@h.example/n?token=abc"
        let record = ExportRecord.make("succeeded", id: Ids.fetch(1), session: Ids.session(1), source: secret, at: Fixtures.day0, host: "old-host")
        try await team.server.psql("""
            INSERT INTO fetch_history.session (id, started_at, source, host, process_id)
                VALUES ('\(record.session)', \(record.startedAt), '\(secret)', 'old-host', 1);
            INSERT INTO fetch_history.fetch (id, session_id, source, started_at, ended_at, duration_ms, outcome, value, host)
                VALUES ('\(record.id)', '\(record.session)', '\(secret)', \(record.startedAt), \(record.endedAt ?? 0),
                        \(record.durationMs ?? 0), 'succeeded', '42', 'old-host');
            """, database: team.database)

        // When it is pulled into a new file
        let file = team.sandbox.path("pulled.sqlite")
        let pull = try await team.succeed(["pull", "-d", file, "--from", team.url])

        // Then the pull says so on standard error, keeping its one line on standard output,
        // and the file holds the source hidden as recording would have stored it, with no secret anywhere
        #expect(pull.standardError == "pull: 1 source had secrets removed\n", "\(pull)")
        #expect(pull.lines.count == 1 && pull.standardOutput.hasPrefix("pulled 1 fetch"), "\(pull)")
        let exported = try await team.succeed(["export", "-d", file, "--format", "jsonl"])
        #expect(try exported.lines.map { try ExportRecord(jsonLine: $0).source } == ["https://***:***@h.example/n?token=***"], "\(exported)")
        let dump = try await ExternalCommand.run("/usr/bin/sqlite3", [file, ".dump"])
        #expect(dump.succeeded && dump.standardOutput.contains("h.example"), "\(dump)")
        #expect(!dump.standardOutput.contains("bob") && !dump.standardOutput.contains("pw@") && !dump.standardOutput.contains("abc"), "\(dump)")
    }

    @Test func anImportIntoTheServerStoresASourceWithSecretsHidden() async throws {
        // Given an export whose source has a user, a password and a token, beside one with nothing to hide
        let team = try await TeamFixture()
        let export = team.sandbox.path("secret.jsonl")
        let records = [
            ExportRecord.make("succeeded", id: Ids.fetch(1), session: Ids.session(1), source: "https://bob:pw@h.example/n?token=abc", at: Fixtures.day0),
            ExportRecord.make("succeeded", id: Ids.fetch(2), session: Ids.session(1), source: "https://h.example/n?page=2", at: Fixtures.day0 + 1_000),
        ]
        try ExportRecord.jsonl(records).write(to: URL(fileURLWithPath: export))

        // When it is imported into the team history
        let imported = try await team.succeed(["import", "-d", team.url, export])

        // Then the import says so on standard error, and the server holds the source hidden, and nowhere the secret
        #expect(imported.standardError == "import: 1 source had secrets removed\n", "\(imported)")
        #expect(imported.standardOutput == "imported 2 fetches: 2 added, 0 already present\n", "\(imported)")
        let exported = try await team.succeed(["export", "-d", team.url, "--format", "jsonl"])
        #expect(try exported.lines.map { try ExportRecord(jsonLine: $0).source } == [
            "https://***:***@h.example/n?token=***", "https://h.example/n?page=2",
        ], "\(exported)")
        let leaked = try await team.server.psql("""
            SELECT count(*) FROM (SELECT source FROM fetch_history.fetch UNION ALL SELECT source FROM fetch_history.session) sources
            WHERE source LIKE '%bob%' OR source LIKE '%abc%'
            """, database: team.database)
        #expect(leaked == "0")
    }
}
