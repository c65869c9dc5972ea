import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc

/// The `fetch-history` command: records fetches and reads the history back.
public struct FetchHistoryCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "fetch-history",
        abstract: "Record every fetch of a number, and list, query and export the history.",
        discussion: """
            The history lives in one SQLite file: --database PATH, else $FETCH_HISTORY_DB, else \
            $XDG_DATA_HOME/fetch-history/history.sqlite, else ~/.local/share/fetch-history/history.sqlite.

            Examples:
              fetch-history fetch --count 3 --interval 500ms
              fetch-history list --outcome failed --since 2h
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
        // A closed pipe (`export | head`) becomes EPIPE on write, which the
        // output stream turns into a quiet end instead of a killed process.
        signal(SIGPIPE, SIG_IGN)
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
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
                    Glibc.exit(0)
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
            Glibc.exit(0)
        } catch is OutputClosed {
            Glibc.exit(0)
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
            Glibc.exit(1)
        }
    }

    /// Reports a usage error the way every other error is reported, as
    /// `error: …` (argument-parser says `Error:`), with the usage after it.
    private static func fail(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
        StandardError.write(message + "\n")
        Glibc.exit(code.rawValue)
    }
}
