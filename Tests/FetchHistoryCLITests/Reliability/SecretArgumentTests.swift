import Foundation
import Testing

extension ReliabilityTests {
    /// A history argument that is no file's path and no PostgreSQL URL — a
    /// mistyped scheme, another database's URL — is refused before anything
    /// is opened or made, and its password is never printed.
    @Suite("A mistyped server URL never prints its password or makes folders")
    struct SecretArguments {
        static let secret = "s3cr3t-\(UUID().uuidString.prefix(6))"

        /// Every shape of URL that names no history, each with a password.
        static let refused = [
            "mysql://u:\(secret)@h/x", "postgress://u:\(secret)@h/x", "pg://u:\(secret)@h/x", "postgres:/u:\(secret)@h/x",
            "POSTGRESQL:u:\(secret)@h/x", "pgsql://u:\(secret)@h/x", "file://u:\(secret)@localhost/tmp/h.sqlite",
            "https://u:\(secret)@h/x?password=\(secret)",
        ]

        /// Every command, with the arguments it needs besides the history (`IN` and `OUT` stand for files).
        static let commands: [[String]] = [
            ["list"], ["list", "--follow"], ["show", "0123"], ["stats"], ["sessions"], ["export"], ["export", "-o", "OUT"],
            ["report", "-o", "OUT"], ["prune", "--keep", "1"], ["prune", "--keep", "1", "--dry-run"], ["delete", "0123"],
            ["fetch"], ["import", "IN"], ["replay"],
        ]

        @Test(arguments: refused)
        func everyCommandRefusesItWithExit64AndNeitherPrintsThePasswordNorMakesAnything(_ url: String) async throws {
            // Given a sandbox holding only an export to import
            let sandbox = try Sandbox()
            let input = sandbox.path("in.jsonl")
            try ExportRecord.jsonl(Array(Fixtures.standard.prefix(2))).write(to: URL(fileURLWithPath: input))
            let before = try sandbox.entries(of: sandbox.root.path)

            // When every command is given the URL as --database, and as FETCH_HISTORY_DB
            var results: [CLIResult] = []
            for command in Self.commands {
                let arguments = command.map { $0 == "IN" ? input : $0 == "OUT" ? sandbox.path("out") : $0 }
                results.append(try await sandbox.run(arguments + ["--database", url]))
                results.append(try await sandbox.run(arguments, environment: sandbox.environment(.path(url))))
            }

            // Then each exits 64 with one sentence naming the scheme and what is accepted, the password hidden,
            // and nothing was made: no file, no folder named after the URL
            let scheme = String(url.prefix { $0 != ":" })
            for result in results {
                #expect(result.status == 64, "\(result)")
                #expect(result.standardError.hasPrefix("error: "), "\(result)")
                #expect(result.standardError.contains("takes a file's path or a postgres:// or postgresql:// URL, not a \(scheme): URL"), "\(result)")
                #expect(!result.standardError.contains(Self.secret) && !result.standardOutput.contains(Self.secret), "\(result)")
                #expect(result.standardError.contains("***"), "\(result)")
            }
            #expect(try sandbox.entries(of: sandbox.root.path) == before)
        }

        @Test(arguments: refused)
        func pushAndPullRefuseItAsTheirTeamHistoryTheSameWay(_ url: String) async throws {
            // Given a local history
            let sandbox = try Sandbox()
            try await sandbox.importRecords(Array(Fixtures.standard.prefix(2)))
            let before = try sandbox.entries(of: sandbox.root.path)

            // When push and pull are pointed at the URL, given and through FETCH_HISTORY_REMOTE
            let results = [
                try await sandbox.run("push", "--to", url),
                try await sandbox.run("pull", "--from", url),
                try await sandbox.run(["push"], environment: sandbox.environment(.sandbox, ["FETCH_HISTORY_REMOTE": url])),
            ]

            // Then each is refused with exit 64, without the password, and nothing changed; except that push
            // takes an https:// URL as a collector of spans, and fails to reach this one in one line, the password hidden
            let pushesToACollector = url.hasPrefix("https:")
            for (index, result) in results.enumerated() {
                #expect(!result.standardError.contains(Self.secret) && !result.standardOutput.contains(Self.secret), "\(result)")
                if pushesToACollector && index != 1 {
                    #expect(result.status == 1, "\(result)")
                    #expect(result.standardError.hasPrefix("error: cannot push to the collector at https://***:***@h/x/v1/traces?password=***: "), "\(result)")
                } else {
                    #expect(result.status == 64, "\(result)")
                    #expect(result.standardError.contains("postgres:// or postgresql:// URL"), "\(result)")
                }
            }
            if !pushesToACollector { #expect(results[2].standardError.hasPrefix("error: FETCH_HISTORY_REMOTE takes"), "\(results[2])") }
            #expect(try sandbox.entries(of: sandbox.root.path) == before)
        }

        @Test func aPathWithAColonButNoURLIsStillAFile() async throws {
            // Given a file name with a colon in it, which is no scheme PostgreSQL's could be mistyped as
            let sandbox = try Sandbox()
            let name = "notes:v2.sqlite"

            // When a fetch is recorded into it, relative to the working folder
            let fetch = try await sandbox.run("fetch", "--database", name)

            // Then it is a file like any other
            #expect(fetch.status == 0, "\(fetch)")
            #expect(FileManager.default.fileExists(atPath: sandbox.path(name)))
        }

        @Test(arguments: ["Postgres", "POSTGRESQL"])
        func aServerSchemeInAnyCaseNamesTheServerAndMakesNoFolder(_ scheme: String) async throws {
            // Given a server URL whose scheme is not in lower case, on a port nothing listens on
            let sandbox = try Sandbox()
            let url = "\(scheme)://u:\(Self.secret)@127.0.0.1:1/team?sslmode=disable"

            // When list reads it
            let result = try await sandbox.run("list", "--database", url)

            // Then it was taken as the server (which refused the connection), not as a path:
            // no folder named after it, and no password in what was printed
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.hasPrefix("error: cannot connect to u@127.0.0.1:1/team"), "\(result)")
            #expect(!result.standardError.contains(Self.secret), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.path(scheme + ":")))
        }

        @Test func aPasswordHoldingASlashIsNeverShownAsThePort() async throws {
            // Given a URL whose password holds a '/', so that what follows the user reads as host and port
            let sandbox = try Sandbox()
            let url = "postgres://u:\(Self.secret)/x@127.0.0.1/team"

            // When list reads it
            let result = try await sandbox.run("list", "--database", url)

            // Then the port is refused without being repeated
            #expect(result.status != 0, "\(result)")
            #expect(result.standardError.hasPrefix("error: the port is not a number"), "\(result)")
            #expect(!result.standardError.contains(Self.secret), "\(result)")
        }
    }
}
