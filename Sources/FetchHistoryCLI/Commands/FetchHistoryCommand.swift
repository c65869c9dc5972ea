import ArgumentParser
import Dispatch
import FoundationEssentials

/// The `fetch-history` command: records fetches and reads the history back.
public struct FetchHistoryCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
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
            """,
        version: version,
        subcommands: [
            FetchCommand.self, ListCommand.self, ShowCommand.self, StatsCommand.self,
            ExportCommand.self, ImportCommand.self, ReplayCommand.self,
            PruneCommand.self,
            DeleteCommand.self,
            SessionsCommand.self,
        ]
    )

    /// Where `fetch` and `replay --live` get the HTTP source from.
    @TaskLocal static var http = HTTPClientProvider.companion(executable: "fetch-history-http")

    public init() {}

    /// Parses the arguments and runs the command, with the HTTP source
    /// from `http`. Usage errors print the usage and exit 64; any other
    /// failure prints one `error: …` line and exits 1.
    ///
    /// Synchronous on purpose: the reading commands run on the main thread
    /// and exit without ever starting Swift concurrency's threads; only
    /// `fetch` and `replay` start them.
    public static func main(http: HTTPClientProvider) -> Never {
        ThisProcess.ignoreBrokenPipes()
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments(Array(CommandLine.arguments.dropFirst())))
        } catch {
            fail(error)
        }
        guard var asyncCommand = command as? any AsyncParsableCommand else {
            var command = command
            finish { try command.run() }
        }
        Task {
            await $http.withValue(http) {
                do {
                    try await asyncCommand.run()
                    ThisProcess.exit(0)
                } catch {
                    finish { throw error }
                }
            }
        }
        dispatchMain()
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
        } catch let error as CleanExit {
            exit(withError: error)
        } catch where exitCode(for: error) == .success {
            // `--help` and `help` run argument-parser's own command, which
            // "fails" with the help text.
            exit(withError: error)
        } catch {
            StandardError.write("error: \(String(describing: error).terminalSafe)\n")
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
    private static func globalOptionsEnd(_ given: [String]) -> Int {
        var index = 0
        while index < given.count {
            let word = given[index]
            if DatabaseOptions.globalOptions.contains(word), index + 1 < given.count {
                index += 2
            } else if let equals = word.firstIndex(of: "="), DatabaseOptions.globalOptions.contains(String(word[..<equals])) {
                index += 1
            } else {
                break
            }
        }
        return index
    }

    /// Reports a usage error the way every other error is reported, as
    /// `error: …` (argument-parser says `Error:`), with the usage after it.
    private static func fail(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        if let message = unknownCommandMessage() {
            StandardError.write("error: \(message)\n")
            ThisProcess.exit(ExitCode.validationFailure.rawValue)
        }
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
        // A value our own types refused: say what they expect (argument-parser
        // only says "invalid"), after its sentence, as it does for the
        // errors of a transform.
        if let rejection = ArgumentRejection.last,
           let end = message.firstIndex(of: "\n"),
           message[..<end].contains("The value '\(rejection.value)' is invalid")
        {
            message = message[..<end] + ": " + rejection.reason + message[end...]
        } else if let end = message.firstIndex(of: "\n"), message.hasPrefix("error: Missing value for '"),
                  let negative = negativeValue(after: message[..<end])
        {
            // `--interval -5s`: argument-parser takes -5s for an option and
            // says the value is missing.
            message = message[..<end] + ": '\(negative.terminalSafe)' is negative, and no option takes a negative value"
                + message[end...]
        }
        StandardError.write(message + "\n")
        ThisProcess.exit(code.rawValue)
    }

    /// The word after the option a "Missing value for '--interval <duration>'"
    /// line names, when that word is a negative number such as `-5s`.
    private static func negativeValue(after line: Substring) -> String? {
        guard let option = line.split(separator: "'").dropFirst().first?.split(separator: " ").first else { return nil }
        let words = Array(CommandLine.arguments.dropFirst())
        guard let index = words.firstIndex(where: { $0 == option }), index + 1 < words.count else { return nil }
        let next = words[index + 1]
        guard next.hasPrefix("-"), next.dropFirst().first?.isNumber == true else { return nil }
        return next
    }

    /// "'lst' is not a fetch-history command; did you mean 'list'?", when the
    /// first word that is not a global option names no command; or that
    /// global options were given with no command at all.
    private static func unknownCommandMessage() -> String? {
        let given = Array(CommandLine.arguments.dropFirst())
        let end = globalOptionsEnd(given)
        if end > 0, end == given.count {
            return "\(given[0]) needs a command after it, as in: fetch-history \(given[..<end].joined(separator: " ")) list"
        }
        if given.count == 1, DatabaseOptions.globalOptions.contains(given[0]) {
            return "\(given[0]) needs a value and a command after it, as in: fetch-history \(given[0]) \(given[0] == "--color" ? "never" : "history.sqlite") list"
        }
        let words = arguments(given)
        guard let word = words.first, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        let shown = word.terminalSafe
        let closest = names.map { (name: $0, distance: $0.editDistance(to: word)) }.min { $0.distance < $1.distance }
        if let closest, closest.distance <= 2, closest.distance < word.count {
            return "'\(shown)' is not a fetch-history command; did you mean '\(closest.name)'?"
        }
        return "'\(shown)' is not a fetch-history command; the commands are \(names.dropLast().joined(separator: ", ")) (see fetch-history --help)"
    }
}
