import ArgumentParser
import Dispatch
import FetchHistory
import FoundationEssentials

/// The `fetch-history` command: records fetches and reads the history back.
package struct FetchHistoryCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    package static let configuration = CommandConfiguration(
        commandName: "fetch-history",
        abstract: "Record every fetch of a number, and list, query and export the history.",
        discussion: """
            The history lives in one SQLite file: --database PATH, else $FETCH_HISTORY_DB, else \
            $XDG_DATA_HOME/fetch-history/history.sqlite, else ~/.local/share/fetch-history/history.sqlite.

            Every command takes -d/--database and --color auto|always|never, before or after its \
            name. auto colours only a terminal, and not with TERM=dumb or NO_COLOR set. Tables fit \
            $COLUMNS, else the terminal's width, and are not cut when written to a pipe or file.

            Durations: 250ms, 2s, 1.5s, 1m30s, 2h, 7d, 3w (largest unit first) or 0. Times: \
            2026-11-22, 2026-11-22T10:00:00 (local), 2026-11-22T10:00:00Z, or a duration ago.

            Examples:
              fetch-history fetch --count 3 --interval 500ms
              fetch-history list --outcome failed --since 1w2d
              fetch-history -d team.sqlite --color never list
              COLUMNS=100 fetch-history list | less -R
              fetch-history export --format jsonl --output history.jsonl
              fetch-history report --since 1d --output last-day.html
            """,
        version: version,
        subcommands: [
            FetchCommand.self, ListCommand.self, ShowCommand.self, StatsCommand.self,
            ExportCommand.self, ImportCommand.self, ReportCommand.self, ReplayCommand.self,
            PruneCommand.self,
            DeleteCommand.self,
            SessionsCommand.self,
            PushCommand.self, PullCommand.self,
        ]
    )

    /// Where `fetch` and `replay --live` get the HTTP source from.
    @TaskLocal static var http = HTTPClientProvider.companion(executable: "fetch-history-http")

    /// Where every command gets a team history on a server from.
    @TaskLocal static var teams = TeamHistoryProvider.companion(executable: "fetch-history-postgres")

    /// Where `push` gets a collector of OpenTelemetry spans from.
    @TaskLocal static var collectors = SpanCollectorProvider.companion(executable: "fetch-history-http")

    package init() {}

    /// Usage errors start `error: `, as every other error line does
    /// (argument-parser's own prefix is `Error: `).
    ///
    /// argument-parser's hook for this (experimental, hence the underscore):
    /// its package `message(for:)` and `usageString(for:)` leave out the
    /// `Help:` line and the "See '… --help'" line its `fullMessage(for:)`
    /// has, so the full text cannot be put together from them. Should the
    /// hook go away, this is left unused and usage errors say `Error:`,
    /// which UsageTests catch.
    package static var _errorPrefix: String { "error: " }

    /// Parses the arguments and runs the command, with the HTTP source
    /// from `http`. Usage errors print the usage and exit 64; any other
    /// failure prints one `error: …` line and exits 1.
    ///
    /// The commands on the history (`HistoryCommand`) run on the main
    /// thread, inline: on a local file they exit without ever starting
    /// Swift concurrency's threads; `fetch` and `replay` start them.
    @MainActor package static func main(
        http: HTTPClientProvider, teams: TeamHistoryProvider = .companion(executable: "fetch-history-postgres"),
        collectors: SpanCollectorProvider = .companion(executable: "fetch-history-http")
    ) -> Never {
        ThisProcess.ignoreBrokenPipes()
        ThisProcess.unblockTrappableSignals()
        // This program owns its process: SQLite's process-wide settings are its to choose.
        SQLiteProcess.stopCountingMemory()
        let given = Array(CommandLine.arguments.dropFirst())
        // An HTTP fetch goes to the companion before its words are parsed
        // here: the companion parses them again, and parsing them twice
        // cost every such fetch a few milliseconds. When the companion
        // cannot start, the command below meets the same failure and says so.
        if case .companion(let name) = http, FetchCommand.fetchesOverHTTP(given) {
            _ = try? Companion.takeOver(name, for: .http)
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments(given))
        } catch {
            fail(error)
        }
        if var historyCommand = command as? any HistoryCommand {
            runInline {
                await $teams.withValue(teams) {
                    await $collectors.withValue(collectors) {
                        do {
                            try await historyCommand.run()
                            ThisProcess.exit(0)
                        } catch {
                            finish { throw error }
                        }
                    }
                }
            }
            dispatchMain()
        }
        guard let asyncCommand = command as? any AsyncParsableCommand else {
            var command = command
            finish { try command.run() }
        }
        start(asyncCommand, http: http, teams: teams, collectors: collectors)
        dispatchMain()
    }

    /// Starts `command` off the main actor, with the HTTP source from `http`.
    private static func start(
        _ command: sending any AsyncParsableCommand, http: HTTPClientProvider, teams: TeamHistoryProvider,
        collectors: SpanCollectorProvider
    ) {
        var command = command
        Task {
            await $http.withValue(http) {
                await $teams.withValue(teams) {
                    await $collectors.withValue(collectors) {
                        do {
                            try await command.run()
                            ThisProcess.exit(0)
                        } catch {
                            finish { throw error }
                        }
                    }
                }
            }
        }
    }

    /// Starts `body` on the main actor at once, on this thread, running it
    /// until it first suspends; `dispatchMain()` then runs the rest.
    @MainActor private static func runInline(_ body: sending @escaping @MainActor () async -> Void) {
        if #available(macOS 26, *) {
            Task.immediate(operation: body)
        } else {
            Task(operation: body)
        }
    }

    /// Runs `body` and exits: 0 when it returns, else as its error says.
    private static func finish(_ body: () throws -> Void) -> Never {
        do {
            try body()
            ThisProcess.exit(0)
        } catch is OutputClosed {
            ThisProcess.exit(0)
        } catch let error as ExitCode {
            exit(withError: error)
        } catch let error as ValidationError {
            fail(error)
        } catch where exitCode(for: error) == .success {
            // `--help` and `help` run argument-parser's own command, which
            // "fails" with the help text (`fail` prints it, wrapped).
            fail(error)
        } catch {
            StandardError.write("error: \(ErrorSentence.describe(error).terminalSafe)\n")
            ThisProcess.exit(1)
        }
    }

    /// The command line with the options every command takes (`-d`,
    /// `--database`, `--color`) moved from before the command's name to just
    /// after it, where its parser reads them: argument-parser only parses a
    /// subcommand's options after its name, and `fetch-history -d h.sqlite
    /// list` is how people write it.
    static func arguments(_ given: [String]) -> [String] {
        let end = globalOptionsEnd(given)
        // Only when a command's name follows: anything else is left for the
        // parser to report as it is. `help` takes no options: they are dropped.
        guard end > 0, end < given.count, !given[end].hasPrefix("-") else { return given }
        if given[end] == "help" { return Array(given[end...]) }
        return [given[end]] + given[..<end] + given[(end + 1)...]
    }

    /// Where the global options (and their values) at the start of `given` end.
    static func globalOptionsEnd(_ given: [String]) -> Int {
        var index = 0
        while index < given.count {
            let word = given[index]
            if DatabaseOptions.globalOptions.contains(word), index + 1 < given.count {
                index += 2
            } else if let equals = word.firstIndex(of: "="), DatabaseOptions.globalOptions.contains(String(word[..<equals])) {
                index += 1
            } else if word.count > 2, word.hasPrefix("-d"), !word.hasPrefix("--") {
                // `-dhistory.sqlite`: the value joined, as getopt takes it.
                index += 1
            } else {
                break
            }
        }
        return index
    }
}
