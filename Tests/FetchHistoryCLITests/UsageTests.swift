import Foundation
import Testing

@Suite("Usage errors, help and version")
struct UsageTests {
    static let usageErrors: [[String]] = [
        ["fetch", "--count", "0"],
        ["fetch", "--count", "-3"],
        ["fetch", "--source", "ftp://x"],
        ["fetch", "--source", "somewhere"],
        ["fetch", "--source", "https://"],
        ["fetch", "--source", "http://127.0.0.1:9/n", "--latency", "1s"],
        ["fetch", "--interval", "5parsecs"],
        ["fetch", "--latency", "fast"],
        ["fetch", "--timeout", "0"],
        ["fetch", "--format", "xml"],
        ["list", "--outcome", "bogus"],
        ["list", "--limit=-1"],
        ["list", "--since", "tomorrow"],
        ["list", "--since", "2h", "--until", "1d"],
        ["list", "--status", "42"],
        ["list", "--offset", "-1"],
        ["list", "--min-duration", "2s", "--max-duration", "1s"],
        ["prune", "--keep", "-1"],
        ["sessions", "--until", "yesterday", "--since", "today"],
        ["list", "--until", "2026-13-01"],
        ["list", "--format", "xlsx"],
        ["export", "--format", "table"],
        ["show"],
        ["import"],
        ["frobnicate"],
        ["list", "--no-such-option"],
        ["list", "--database", ""],
        ["fetch", "-d", ""],
        ["replay", "--latency", "1s"],
    ]

    @Test(arguments: usageErrors)
    func aUsageErrorExits64WithAnErrorLineAndTouchesNoDatabase(_ arguments: [String]) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When the command line is wrong
        let result = try await sandbox.run(arguments)

        // Then it exits 64, stderr is one "error:" line and one hint naming the command's help
        // (none for a word that is no command), and no database was created
        #expect(result.status == 64, "\(result)")
        let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first?.hasPrefix("error: ") == true, "\(result)")
        if arguments[0] == "frobnicate" {
            #expect(lines.count == 1, "\(result)")
        } else {
            #expect(Array(lines.dropFirst()) == ["see 'fetch-history \(arguments[0]) --help'"], "\(result)")
        }
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test(arguments: [60, 80])
    func helpIsWrappedToTheTerminalUsageLineIncluded(_ columns: Int) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        for subcommand in Self.subcommands {
            // When a command's help is shown at that width
            let result = try await sandbox.run([subcommand, "--help"], environment: sandbox.environment(.sandbox, ["COLUMNS": "\(columns)"]))

            // Then no line is wider; fetch's usage (188 characters whole) goes on indented under its first option
            #expect(result.status == 0, "\(result)")
            for line in result.lines {
                #expect(Cells.width(line) <= columns, "\(subcommand) --help at \(columns): \(line)")
            }
            if subcommand == "fetch" {
                let usage = try #require(result.lines.firstIndex { $0.hasPrefix("USAGE: fetch-history fetch [") }, "\(result)")
                #expect(result.lines[usage + 1].hasPrefix(String(repeating: " ", count: "USAGE: fetch-history fetch ".count) + "["), "\(result)")
            }
        }
    }

    @Test func theOutcomeErrorListsTheValidOutcomes() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run("list", "--outcome", "bogus")
        #expect(result.status == 64)
        for outcome in ["succeeded", "failed", "cancelled", "timed-out", "interrupted"] {
            #expect(result.standardError.contains(outcome), "\(result)")
        }
    }

    @Test func aLongRefusedOutcomeIsEchoedCutToFortyCharacters() async throws {
        // Given an empty sandbox, and an outcome of 100 characters
        let sandbox = try Sandbox()
        let outcome = String(repeating: "x", count: 100)

        // When it is given to --outcome
        let result = try await sandbox.run("list", "--outcome", outcome)

        // Then after argument-parser's sentence (which echoes it whole) our own shows 40 characters and an ellipsis
        #expect(result.status == 64, "\(result)")
        let expected = "error: The value '\(outcome)' is invalid for '--outcome <outcome>': '\(outcome.prefix(40))…' is not an outcome; "
            + "use one of running, succeeded, failed, cancelled, timed-out, interrupted"
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == expected, "\(result)")
    }

    static let subcommands = ["fetch", "list", "show", "stats", "export", "import", "replay", "prune", "delete", "sessions"]

    @Test(arguments: subcommands)
    func everySubcommandsHelpExitsZeroWithExamples(_ subcommand: String) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When help is asked for, as an option and through `help`
        let option = try await sandbox.run(subcommand, "--help")
        let helpCommand = try await sandbox.run("help", subcommand)

        // Then it exits 0 with the usage and examples of that subcommand, and touches no database
        #expect(option.status == 0, "\(option)")
        #expect(option.standardOutput.contains("USAGE: fetch-history \(subcommand)"), "\(option)")
        #expect(option.standardOutput.contains("Examples:"), "\(option)")
        #expect(option.standardOutput.contains("  fetch-history \(subcommand)"), "an example runs \(subcommand): \(option)")
        #expect(helpCommand.status == 0 && helpCommand.standardOutput == option.standardOutput, "\(helpCommand)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        // and the options kept for this project's tests are not shown, even to --help-hidden
        let hidden = try await sandbox.run(subcommand, "--help-hidden")
        #expect(hidden.status == 0 && !hidden.standardOutput.contains("--test-"), "\(hidden)")
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func theToolsHelpListsEverySubcommand(_ arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("Examples:"), "\(result)")
        for subcommand in Self.subcommands {
            #expect(result.standardOutput.contains("  \(subcommand) "), "\(subcommand) in \(result)")
        }
    }

    @Test func versionPrintsASemanticVersion() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run("--version")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.wholeMatch(of: /\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?\n/) != nil, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }
}
