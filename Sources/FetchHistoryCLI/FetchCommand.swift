import ArgumentParser
import FetchHistory
import FoundationEssentials
import Glibc

struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch numbers through the view state, recording every fetch as it happens.",
        discussion: """
            Runs the fetches one after the other, waiting --interval between the end of one and \
            the start of the next. Ctrl-C cancels the fetch in flight, records it as cancelled \
            and exits 130; a second Ctrl-C exits at once.

            Exit status: 0 when every fetch succeeded, 1 when any failed or timed out, 130 on \
            Ctrl-C (143 on SIGTERM).

            Examples:
              fetch-history fetch
              fetch-history fetch --count 10 --interval 250ms --latency 100ms
              fetch-history fetch --timeout 500ms --format json
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Where numbers come from: 'random' (built in) or an http(s) URL.", valueName: "random|URL"))
    var source = "random"

    @Option(help: "How many fetches to run.")
    var count = 1

    @Option(help: ArgumentHelp("Pause between fetches, e.g. 500ms, 2s.", valueName: "duration"))
    var interval = DurationArgument(.seconds(1))

    @Option(help: ArgumentHelp("Cancel a fetch that takes longer, recorded as timed-out.", valueName: "duration"))
    var timeout: DurationArgument?

    @Option(help: ArgumentHelp("How long the random source takes to answer (default 1s).", valueName: "duration"))
    var latency: DurationArgument?

    @Option(help: "Print each fetch as a table row (text) or as a JSON object per line (json).")
    var format = TextFormat.text

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        if let timeout, timeout.duration <= .zero { throw ValidationError("--timeout must be longer than 0") }
        if httpURL == nil {
            guard source == RandomNumberClient.sourceName else {
                // Redacted: a mistyped URL may still carry a token.
                let shown = URL(string: source).map { RedactedURL($0).description } ?? "that value"
                throw ValidationError("--source must be 'random' or an http:// or https:// URL with a host, not \(shown)")
            }
        } else if latency != nil {
            throw ValidationError("--latency applies to the random source only")
        }
    }

    /// The `--source` URL, when it is an http(s) URL with a host.
    private var httpURL: URL? {
        guard let url = URL(string: source), ["http", "https"].contains(url.scheme?.lowercased()),
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    func run() async throws {
        try await record()
    }

    @MainActor
    private func record() async throws {
        let client: any APIClient
        let recordedSource: String
        if let url = httpURL {
            client = try FetchHistoryCommand.http.client(for: url)
            recordedSource = RedactedURL(url).description
        } else {
            client = RandomNumberClient(latency: latency?.duration ?? .seconds(1))
            recordedSource = RandomNumberClient.sourceName
        }
        let store = try database.openForWriting()
        let recorder = try await HistoryRecorder(store: store, source: recordedSource)
        let viewState = FetchViewState(client: client, recorder: recorder, timeout: timeout?.duration)
        let output = OutputStream.standardOutput()
        let table = FetchTable(color: Terminal.wantsColor && format == .text)
        let showsProgress = count > 1 && StandardError.isTerminal
        var printed = 0

        let run = Task { @MainActor in
            try await viewState.fetch(count: count, interval: interval.duration) { completed in
                printed += 1
                if showsProgress { StandardError.write("\r\u{1B}[K") }
                // Print what was recorded, read back, rather than what we meant to record.
                guard let fetch = try? store.read({ db in try db.fetch(idPrefix: completed.id.lowercased) }) else { return }
                switch format {
                case .text: try? output.write(table.row(fetch) + "\n")
                case .json: try? output.write { JSONWriter.append(to: &$0) { $0.record(fetch); $0.newline() } }
                }
                try? output.flush()
                if showsProgress, printed < count { StandardError.write("[\(printed)/\(count)] waiting…") }
            }
        }
        let trap = SignalTrap { _ in run.cancel() }
        let completed = try await run.value

        if let signal = trap.receivedSignal {
            throw ExitCode(128 + signal)
        }
        if !completed.allSatisfy({ if case .succeeded = $0.outcome { true } else { false } }) {
            throw ExitCode.failure
        }
    }
}
