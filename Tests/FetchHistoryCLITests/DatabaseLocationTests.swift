import Foundation
import Testing

@Suite("Where the history lives, and how it is created")
struct DatabaseLocationTests {
    @Test func aNewDatabaseIsPrivateAndItsMissingFoldersAre0700() async throws {
        // Given a database path three missing folders deep
        let sandbox = try Sandbox()
        let path = sandbox.path("new/nested/deeper/history.sqlite")

        // When a fetch records into it
        let result = try await sandbox.run("fetch", "--latency", "0", "--database", path)

        // Then the file is 0600 and every folder created for it is 0700
        #expect(result.status == 0, "\(result)")
        let mode = try permissions(path)
        #expect(mode == 0o600, "database mode \(String(mode, radix: 8))")
        for folder in ["new", "new/nested", "new/nested/deeper"] {
            let mode = try permissions(sandbox.path(folder))
            #expect(mode == 0o700, "\(folder) is \(String(mode, radix: 8))")
        }
        for companion in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + companion) {
            let mode = try permissions(path + companion)
            #expect(mode & 0o077 == 0, "\(companion) is \(String(mode, radix: 8))")
        }
    }

    @Test func withoutDatabaseOrEnvironmentTheHistoryIsUnderXDGDataHome() async throws {
        // Given no --database and no FETCH_HISTORY_DB, and XDG_DATA_HOME set
        let sandbox = try Sandbox()
        let dataHome = sandbox.path("xdg-data")
        let environment = sandbox.environment(.unset, ["XDG_DATA_HOME": dataHome])

        // When a fetch runs, and then a list
        let fetched = try await sandbox.run(["fetch", "--latency", "0"], environment: environment)
        let listed = try await sandbox.run(["list", "--format", "jsonl"], environment: environment)

        // Then the history is $XDG_DATA_HOME/fetch-history/history.sqlite, and list reads it from there
        #expect(fetched.status == 0, "\(fetched)")
        #expect(FileManager.default.fileExists(atPath: dataHome + "/fetch-history/history.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.path + "/.local"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(listed.status == 0 && listed.lines.count == 1, "\(listed)")
    }

    @Test(arguments: [nil, "relative/data"])
    func withoutXDGDataHomeTheHistoryIsUnderHome(xdgDataHome: String?) async throws {
        // Given no --database, no FETCH_HISTORY_DB, and XDG_DATA_HOME unset or relative (which the XDG spec says to ignore)
        let sandbox = try Sandbox()
        let environment = sandbox.environment(.unset, xdgDataHome.map { ["XDG_DATA_HOME": $0] } ?? [:])

        // When a fetch runs
        let result = try await sandbox.run(["fetch", "--latency", "0"], environment: environment)

        // Then the history is $HOME/.local/share/fetch-history/history.sqlite
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: sandbox.home.path + "/.local/share/fetch-history/history.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func fetchHistoryDBWinsOverXDGDataHome() async throws {
        // Given FETCH_HISTORY_DB and XDG_DATA_HOME both set
        let sandbox = try Sandbox()
        let dataHome = sandbox.path("xdg-data")
        let environment = sandbox.environment(.sandbox, ["XDG_DATA_HOME": dataHome])

        // When a fetch runs
        let result = try await sandbox.run(["fetch", "--latency", "0"], environment: environment)

        // Then only FETCH_HISTORY_DB's file exists
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: sandbox.database))
        #expect(!FileManager.default.fileExists(atPath: dataHome))
    }

    @Test(arguments: ["--database", "-d"])
    func theDatabaseOptionWinsOverFetchHistoryDB(option: String) async throws {
        // Given FETCH_HISTORY_DB set to one file
        let sandbox = try Sandbox()
        let chosen = sandbox.path("chosen.sqlite")

        // When a fetch runs with the option naming another
        let result = try await sandbox.run("fetch", "--latency", "0", option, chosen)
        let listed = try await sandbox.run("list", option, chosen, "--format", "jsonl")

        // Then the option's file is used and FETCH_HISTORY_DB's is not created
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: chosen))
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(listed.lines.count == 1, "\(listed)")
    }

    @Test(arguments: [["fetch", "--latency", "0"], ["list"]])
    func withNoHomeAndNoDatabaseNamedACommandAsksForOne(_ command: [String]) async throws {
        // Given no HOME, no XDG_DATA_HOME, no FETCH_HISTORY_DB and no --database
        let sandbox = try Sandbox()
        var environment = sandbox.environment(.unset)
        environment["HOME"] = nil

        // When a command runs
        let result = try await sandbox.run(command, environment: environment)

        // Then it exits 1 saying so, and suggests --database
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:") && result.standardError.contains("HOME"), "\(result)")
        #expect(result.standardError.contains("--database"), "\(result)")
    }

    @Test func aTildeInFetchHistoryDBMeansHome() async throws {
        // Given FETCH_HISTORY_DB=~/tilde.sqlite (a shell does not expand a tilde inside a variable's value)
        let sandbox = try Sandbox()
        let environment = sandbox.environment(.path("~/tilde.sqlite"))

        // When a fetch runs
        let result = try await sandbox.run(["fetch", "--latency", "0"], environment: environment)

        // Then the history is in $HOME, not in a folder named "~"
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: sandbox.home.path + "/tilde.sqlite"))
    }

    @Test func anEmptyFetchHistoryDBIsIgnored() async throws {
        // Given FETCH_HISTORY_DB set but empty (as `FETCH_HISTORY_DB=$UNSET` leaves it), and XDG_DATA_HOME set
        let sandbox = try Sandbox()
        let dataHome = sandbox.path("xdg-data")
        let environment = sandbox.environment(.path(""), ["XDG_DATA_HOME": dataHome])

        // When a fetch runs, and then a list
        let fetched = try await sandbox.run(["fetch", "--latency", "0"], environment: environment)
        let listed = try await sandbox.run(["list", "--format", "jsonl"], environment: environment)

        // Then the fetch is recorded where the variable unset would put it, and read back from there
        #expect(fetched.status == 0, "\(fetched)")
        #expect(FileManager.default.fileExists(atPath: dataHome + "/fetch-history/history.sqlite"))
        #expect(listed.status == 0 && listed.lines.count == 1, "\(listed)")
    }

    @Test(arguments: ["--database", "-d"])
    func aTildeInTheDatabaseOptionMeansHome(option: String) async throws {
        // Given --database ~/opt.sqlite as one argument, unexpanded (as when quoted, or written --database=~/…)
        let sandbox = try Sandbox()

        // When a fetch runs with it, from the sandbox's root
        let result = try await sandbox.run(["fetch", "--latency", "0", option, "~/opt.sqlite"], environment: sandbox.environment(.unset))

        // Then the history is in $HOME, and no folder named "~" was made
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: sandbox.home.path + "/opt.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("~")))
    }

    @Test func theMissingFoldersOfARelativeDatabaseAreMadeInTheWorkingDirectory() async throws {
        // Given a relative database path two missing folders deep (its first folder's name is this test's own)
        let sandbox = try Sandbox()
        let top = "relative-\(UUID().uuidString.prefix(8))"
        // Made only if the folders were taken from the file system's root; the name is this test's own.
        defer { try? FileManager.default.removeItem(atPath: "/\(top)") }

        // When a fetch records into it, from the sandbox's root
        let result = try await sandbox.run("fetch", "--latency", "0", "-d", "\(top)/dir/history.sqlite")

        // Then the folders and the file are under the working directory, the folders 0700, and nothing is at the root
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: "/\(top)"), "a folder at the root of the file system")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("\(top)/dir/history.sqlite")))
        #expect(try permissions(sandbox.path(top)) == 0o700)
        #expect(try permissions(sandbox.path("\(top)/dir")) == 0o700)
    }

    @Test func aFolderThatCannotBeMadeIsNamedInTheError() async throws {
        // Given a plain file where the database's folder would go
        let sandbox = try Sandbox()
        let plain = sandbox.path("plain")
        try Data("not a folder\n".utf8).write(to: URL(fileURLWithPath: plain))

        // When a fetch is asked to record under it
        let result = try await sandbox.run("fetch", "--latency", "0", "-d", plain + "/sub/history.sqlite")

        // Then it exits 1 with one line naming the folder and why, and the file is as it was
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: cannot create the folder \(plain)/sub for the history: Not a directory\n", "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) == Data("not a folder\n".utf8))
    }
}
