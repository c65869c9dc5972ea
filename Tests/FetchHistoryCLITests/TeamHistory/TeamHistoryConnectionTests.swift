import Foundation
import LoopbackServers
import Testing

@Suite("Reaching a team history: credentials, TLS, and every way it can fail", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryConnectionTests {
    /// `list` against `url` in `team`'s sandbox, with `environment` added.
    private func list(_ team: TeamFixture, _ url: String, environment: [String: String] = [:]) async throws -> CLIResult {
        try await team.sandbox.run(["list", "-d", url], environment: team.sandbox.environment(.sandbox, environment))
    }

    @Test func theEnvironmentAndThePasswordFileFillWhatTheURLLeavesOut() async throws {
        // Given a team history, reached over TCP with a password and through the socket without one
        let team = try await TeamFixture()
        let local = try await team.localFile()
        try await team.succeed(["push", "-d", local, "--to", team.url])
        let password = team.server.superuserPassword
        let passwordFile = team.sandbox.home.appending(path: ".pgpass").path
        try "# host:port:database:user:password\n127.0.0.1:*:\(team.database):postgres:\(password.replacingOccurrences(of: ":", with: "\\:"))\n"
            .write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o600)

        // When the password comes from PGPASSWORD, from ~/.pgpass, and the whole server from PG* variables
        let fromVariable = try await list(team, "postgres://postgres@127.0.0.1:\(team.server.port)/\(team.database)?sslmode=disable", environment: ["PGPASSWORD": password])
        let fromFile = try await list(team, "postgres://postgres@127.0.0.1:\(team.server.port)/\(team.database)?sslmode=disable")
        let fromVariables = try await list(team, "postgres://", environment: [
            "PGHOST": "127.0.0.1", "PGPORT": String(team.server.port), "PGUSER": "postgres", "PGDATABASE": team.database,
            "PGSSLMODE": "disable",
        ])
        let throughSocket = try await list(team, team.server.socketURL(team.database))

        // Then every one lists the ten fetches
        for result in [fromVariable, fromFile, fromVariables, throughSocket] {
            #expect(result.status == 0 && result.lines.count == 11, "\(result)")
        }
    }

    @Test func aPasswordFileOthersCanReadIsIgnoredAsLibpqIgnoresIt() async throws {
        // Given a password file readable by its group
        let team = try await TeamFixture()
        let passwordFile = team.sandbox.home.appending(path: ".pgpass").path
        try "*:*:*:postgres:\(team.server.superuserPassword)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o640)

        // When a URL without a password relies on it
        let result = try await list(team, "postgres://postgres@127.0.0.1:\(team.server.port)/\(team.database)?sslmode=disable")

        // Then no password was given, and the server refused
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error: "), "\(result)")
    }

    @Test func everyFailureIsOneSentenceWithoutThePasswordAndChangesNothing() async throws {
        // Given a local history and a listener that is not PostgreSQL
        let team = try await TeamFixture()
        let local = try await team.localFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: local))
        let http = try PlainTextListener()
        let secret = "Pa55-\(UUID().uuidString.prefix(6))"
        let port = team.server.port
        try await team.server.psql("ALTER DATABASE \(team.database) SET default_transaction_read_only = on", database: "postgres")
        let cases: [(url: String, error: String)] = [
            ("postgres://postgres:\(secret)@127.0.0.1:\(port)/\(team.database)?sslmode=disable",
             "error: postgres@127.0.0.1:\(port)/\(team.database) refused the user name or password\n"),
            ("postgres://nobody:\(secret)@127.0.0.1:\(port)/\(team.database)?sslmode=disable",
             "error: nobody@127.0.0.1:\(port)/\(team.database) refused the user name or password\n"),
            ("postgres://postgres:\(secret)@no-such-host.invalid/team?connect_timeout=5",
             "error: cannot connect to postgres@no-such-host.invalid:5432/team: unknown host\n"),
            ("postgres://postgres:\(secret)@127.0.0.1:1/team?sslmode=disable",
             "error: cannot connect to postgres@127.0.0.1:1/team: connection refused\n"),
            (team.server.url("nowhere"),
             "error: postgres@127.0.0.1:\(port)/nowhere: the server has no database 'nowhere'\n"),
            ("postgres://postgres:\(secret)@127.0.0.1:\(http.port)/team?sslmode=disable",
             "error: postgres@127.0.0.1:\(http.port)/team closed the connection without answering as a PostgreSQL server\n"),
            ("postgres:///team?host=\(team.sandbox.root.path)&port=\(port)&user=postgres",
             "error: cannot connect to postgres@\(team.sandbox.root.path)/.s.PGSQL.\(port)/team: no server socket there\n"),
            ("postgres://postgres:\(secret)@127.0.0.1:\(port)/team?sslmode=sometimes",
             "error: sslmode 'sometimes' is not one of disable, allow, prefer, require, verify-ca, verify-full\n"),
            ("postgres://postgres:\(secret)@127.0.0.1:\(port)/team?colour=blue",
             "error: the URL's parameter 'colour' is not one of sslmode, sslrootcert, application_name, connect_timeout, host, port, user, dbname\n"),
            ("postgres://postgres:\(secret)@127.0.0.1:99999/team", "error: '99999' is not a port number (1-65535)\n"),
        ]
        for (url, error) in cases {
            // When a push goes there
            let result = try await team.sandbox.run("push", "-d", local, "--to", url)

            // Then it fails with its one sentence, never showing the password
            #expect(result.status == 1 && result.standardError == error, "\(url): \(result)")
            #expect(!result.standardOutput.contains(secret) && !result.standardError.contains(secret))
        }
        // and a server that only reads refuses the push, naming why
        let readOnly = try await team.sandbox.run("push", "-d", local, "--to", team.url)
        #expect(readOnly.status == 1 && readOnly.standardError.hasPrefix("error: postgres@127.0.0.1:\(port)/\(team.database) only reads"), "\(readOnly)")
        // The local file is as it was
        #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == before)
    }

    @Test func tlsEncryptsAndVerifiesAndAWrongRootIsRefused() async throws {
        // Given a team history behind a certificate signed by the test's own authority
        let team = try await TeamFixture()
        let local = try await team.localFile()
        let base = "postgres://postgres:\(team.server.superuserPassword)@127.0.0.1:\(team.server.port)/\(team.database)"
        let root = team.server.rootCertificate
        let other = team.server.otherRootCertificate

        // When a push requires TLS, verifies it fully, and verifies it against another authority
        let required = try await team.sandbox.run("push", "-d", local, "--to", base + "?sslmode=require")
        let verified = try await team.sandbox.run("list", "-d", base + "?sslmode=verify-full&sslrootcert=\(root)", "--limit", "1")
        let wrongRoot = try await team.sandbox.run("list", "-d", base + "?sslmode=verify-full&sslrootcert=\(other)")
        let inTLS = try await team.server.psql(
            "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE ssl AND application_name = 'fetch-history'",
            database: "postgres"
        )

        // Then the first two work and the third is refused in one sentence
        #expect(required.status == 0, "\(required)")
        #expect(verified.status == 0 && verified.lines.count == 2, "\(verified)")
        #expect(wrongRoot.status == 1 && wrongRoot.standardError.hasPrefix("error: cannot connect to postgres@127.0.0.1:\(team.server.port)/\(team.database): TLS failed"), "\(wrongRoot)")
        #expect(wrongRoot.standardError.split(separator: "\n").count == 1, "\(wrongRoot)")
        #expect(inTLS == "0")
    }

    @Test func aPushOnlyRoleMadeAsTheDocsSayCanPushAndReadButNotDeleteRewriteOrPoseAsAnother() async throws {
        // Given a team history whose schema the owner made, and the role docs/team-history.md's SQL makes
        let team = try await TeamFixture()
        let local = try await team.localFile()
        try await team.succeed(["list", "-d", team.url])
        let sql = try DocsPage.block(after: "<!-- docs-sql: push-only-role -->", fenced: "sql", in: "docs/team-history.md")
            .replacingOccurrences(of: "DATABASE team", with: "DATABASE \(team.database)")
        let role = "runner_7_\(team.database.suffix(6))"
        try await team.server.psql(sql.replacingOccurrences(of: "runner_7", with: role), database: team.database)
        let url = team.server.url(team.database, user: role, password: "change me")

        // When the role pushes, reads, prunes, deletes, and writes rows itself
        let push = try await team.sandbox.run("push", "-d", local, "--to", url)
        let list = try await team.sandbox.run("list", "-d", url, "--limit", "0", "--format", "tsv", "--no-header")
        let prune = try await team.sandbox.run("prune", "-d", url, "--keep", "1")
        let delete = try await team.sandbox.run("delete", "-d", url, "00000001")
        let update = await Result { try await team.server.psql("UPDATE fetch_history.fetch SET source = 'x'", database: team.database, user: role) }
        let rawDelete = await Result { try await team.server.psql("DELETE FROM fetch_history.fetch", database: team.database, user: role) }
        let session = UUID().uuidString.lowercased()
        try await team.server.psql(
            "INSERT INTO fetch_history.session (id, started_at, source, host, process_id, pushed_by) VALUES ('\(session)', 0, 'random', 'h', 0, 'postgres')",
            database: team.database, user: role
        )

        // Then the push and the reads work, the deletions are refused in one sentence, the server refuses the rest,
        // and every row it pushed is stamped with its own name
        #expect(push.status == 0 && push.standardOutput.contains("10 new"), "\(push)")
        #expect(list.status == 0 && list.lines.count == 10, "\(list)")
        #expect(prune.status == 1 && prune.standardError == "error: \(role)@127.0.0.1:\(team.server.port)/\(team.database): role '\(role)' may not delete fetches\n", "\(prune)")
        #expect(delete.status == 1 && delete.standardError.contains("may not delete fetches"), "\(delete)")
        #expect(throws: (any Error).self) { try update.get() }
        #expect(throws: (any Error).self) { try rawDelete.get() }
        let stamps = try await team.server.psql(
            "SELECT string_agg(DISTINCT pushed_by, ',') FROM (SELECT pushed_by::text FROM fetch_history.fetch UNION ALL SELECT pushed_by::text FROM fetch_history.session) rows",
            database: team.database
        )
        #expect(stamps == role)
        #expect(try await team.server.psql("SELECT count(*) FROM fetch_history.fetch", database: team.database) == "10")
    }

    @Test func aServerWithANewerSchemaIsRefusedAndTwoFirstPushesMakeTheSchemaOnce() async throws {
        // Given an empty database, and eight files
        let team = try await TeamFixture()
        var files: [String] = []
        for index in 0..<8 {
            files.append(try await team.localFile("local-\(index).sqlite", TeamFixture.records.map { record in
                var record = record
                record.id = Ids.fetch(1_000 * (index + 1) + (Int(record.id.prefix(8), radix: 16) ?? 0))
                record.session = Ids.session(100 * (index + 1) + (Int(record.session.dropFirst(4).prefix(4), radix: 16) ?? 0))
                return record
            }))
        }

        // When all eight push at the same moment into the new database
        var pushes: [FetchHistoryProcess] = []
        for file in files { pushes.append(try await team.sandbox.start("push", "-d", file, "--to", team.url)) }
        var results: [CLIResult] = []
        for push in pushes { results.append(try await push.wait()) }

        // Then each succeeds, the schema was made once, and every fetch is there exactly once
        for result in results { #expect(result.status == 0, "\(result)") }
        #expect(try await team.server.psql("SELECT count(*) FROM fetch_history.migration", database: team.database) == "\(Self.serverMigrations.count)")
        #expect(try await team.server.psql("SELECT count(*), count(DISTINCT id) FROM fetch_history.fetch", database: team.database) == "80|80")

        // and once the schema says it is newer than this fetch-history, it is refused in one sentence
        try await team.server.psql("INSERT INTO fetch_history.migration (version, name) VALUES (99, 'from the future')", database: team.database)
        let refused = try await team.sandbox.run("list", "-d", team.url)
        #expect(refused.status == 1 && refused.standardError.hasPrefix("error: the server's history has schema version 99, newer than this fetch-history knows"), "\(refused)")
    }

    /// `Migrations/postgres/`'s files, in order.
    static let serverMigrations: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../../Migrations/postgres").standardizedFileURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.sorted().map { folder.appending(path: $0) }
    }()

    @Test func aTeamHistoryOfTheFirstSchemaIsUpgradedByTheFirstPushAndTakesATerminatedFetch() async throws {
        // Given a team history made by the first schema alone, as the release before schema 2 made it
        let team = try await TeamFixture()
        let first = try String(contentsOf: try #require(Self.serverMigrations.first), encoding: .utf8)
        try await team.server.psql(first, database: team.database)
        try await team.server.psql(
            "INSERT INTO fetch_history.migration (version, name) VALUES (1, '0001_create_team_history')", database: team.database
        )

        // When a history holding a fetch cancelled because its program was told to stop is pushed
        #expect(TeamFixture.records.contains { $0.cancelReason == "terminated" })
        let local = try await team.localFile()
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // Then the push brought the schema up to date, and the server holds what the file holds
        #expect(try await team.server.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM fetch_history.migration", database: team.database)
            == (1...Self.serverMigrations.count).map(String.init).joined(separator: ","))
        let onFile = try await team.succeed(["export", "-d", local, "--format", "jsonl"])
        let onServer = try await team.succeed(["export", "-d", team.url, "--format", "jsonl"])
        #expect(onServer.standardOutput == onFile.standardOutput)
        #expect(onServer.standardOutput.contains(#""cancelReason":"terminated""#))
        // and the server still refuses a reason there is not
        await #expect(throws: (any Error).self) {
            try await team.server.psql(
                "UPDATE fetch_history.fetch SET cancel_reason = 'stopped' WHERE cancel_reason = 'terminated'", database: team.database
            )
        }
    }
}
