import ArgumentParser
import FetchHistory
import FoundationEssentials

struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch numbers, recording every fetch as it happens.",
        discussion: """
            Runs the fetches one after the other, waiting --interval between the end of one and \
            the start of the next. Ctrl-C cancels the fetch in flight, records it as cancelled \
            by the user and exits 130; a second Ctrl-C exits at once. SIGTERM cancels it too, \
            recorded with the reason terminated (the program was told to stop), and exits 143.

            On a terminal, standard error shows one live line while it works — the fetch's \
            number and how long it has run — cleared before each printed fetch and at exit. \
            Nothing is shown when standard error is not a terminal.

            --format jsonl prints each fetch as one JSON object per line, as `list --format \
            jsonl` does; --format json prints one JSON array of them, a record a line, closed \
            when fetch ends (on Ctrl-C too). When the reader of the output \
            goes away (`| head -1`), fetch stops at once: the fetch in flight is recorded as \
            cancelled, nothing more is fetched, and it exits 0 quietly.

            With --count above 1, it ends with one line on standard error: the fetches counted \
            per outcome, the p50 and p95 of those that succeeded, and the most frequent problem \
            (as stats --by problem names it).

            Exit status: 0 when every fetch succeeded (or the reader left), 1 when any failed \
            or timed out, 130 on Ctrl-C (143 on SIGTERM). With --threshold, the fetches this run \
            made are checked instead, one line each on standard error: 99 when a threshold is \
            crossed, 0 when all are met, however many fetches failed.

            Examples:
              fetch-history fetch
              fetch-history fetch --count 10 --interval 250ms --latency 100ms
              fetch-history fetch --timeout 500ms --format jsonl
              fetch-history fetch --count 100 --interval 100ms --format jsonl | head -3
              fetch-history fetch --source https://example.com/number --timeout 2s
              fetch-history fetch --source https://example.com/number --keep-body 4096
              fetch-history fetch --count 20 --interval 0 --threshold 'failure-rate<10%' --threshold 'p95<1s'

            When an HTTP fetch fails on its answer (a status outside 2xx, a body that is no \
            value), the first 1 KiB of the body (--keep-body) and its Content-Type are \
            recorded, secrets hidden as in URLs; `show` prints them.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(
        help: ArgumentHelp("Where values come from: 'random' (built in) or an http(s) URL answering JSON or a number.", valueName: "random|URL"),
        completion: .sources
    )
    var source = "random"

    // .unconditional: a value that starts with '-' is still this option's
    // value, so `--count -1` reaches validate() and gets a sentence about
    // the count, not "Missing value for '--count <count>'".
    @Option(parsing: .unconditional, help: "How many fetches to run.")
    var count = 1

    // Parsed as ExpressibleByArgument, not with a transform, for its
    // default to show in the help: `FetchHistoryCommand.reason(for:given:)`
    // says why a value is refused.
    @Option(parsing: .unconditional, help: ArgumentHelp("Pause between fetches, e.g. 500ms, 2s.", valueName: "duration"))
    var interval = DurationArgument(.seconds(1))

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Cancel a fetch that takes longer, recorded as timed-out.", valueName: "duration"),
        transform: DurationArgument.init(parsing:)
    )
    var timeout: DurationArgument?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How long the random source takes to answer (default 1s).", valueName: "duration"),
        transform: DurationArgument.init(parsing:)
    )
    var latency: DurationArgument?

    @Option(help: "Print each fetch as a table row (text), as one JSON object per line (jsonl) or in one JSON array (json).")
    var format = FetchFormat.text

    @OptionGroup var keepBody: KeepBodyOption

    @OptionGroup var threshold: ThresholdOption

    func validate() throws {
        try OptionBounds.require(count, atLeast: 1, option: "--count")
        try DurationArgument.refuseNegative(interval, option: "--interval")
        try DurationArgument.refuseNegative(latency, option: "--latency")
        if let timeout, timeout.duration <= .zero { throw ValidationError("--timeout must be longer than 0, not \(timeout)") }
        if httpURL == nil {
            guard source == RandomNumberClient.sourceName else { throw ValidationError(Self.refusal(ofSource: source)) }
        } else if latency != nil {
            throw ValidationError("--latency applies to the random source only")
        }
        if httpURL == nil, keepBody.given != nil { throw ValidationError("--keep-body applies to an http(s) --source only") }
    }

    /// The `--source` URL, when it is an http(s) URL with a host, its scheme
    /// in lower case (`HTTP://` is `http://`, and recorded so).
    private var httpURL: URL? { Self.httpURL(source) }

    private static func httpURL(_ source: String) -> URL? {
        guard let url = URL(string: source)?.withLowercaseScheme, ["http", "https"].contains(url.scheme),
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// Whether the command line `given` (without the program's name) is a
    /// `fetch` from an http(s) `--source`, told from its words alone, before
    /// they are parsed. A guess that misses costs only time: `run` hands
    /// the fetch over all the same.
    static func fetchesOverHTTP(_ given: [String]) -> Bool {
        let commandIndex = FetchHistoryCommand.globalOptionsEnd(given)
        guard commandIndex < given.count, given[commandIndex] == configuration.commandName else { return false }
        var words = given[(commandIndex + 1)...].makeIterator()
        while let word = words.next(), word != "--" {
            if word == "--source", let value = words.next() { return httpURL(value) != nil }
            if word.hasPrefix("--source=") { return httpURL(String(word.dropFirst("--source=".count))) != nil }
        }
        return false
    }

    func run() async throws {
        try await record()
    }

    @MainActor
    private func record() async throws {
        let client: any APIClient
        let recordedSource: String
        if let url = httpURL {
            client = try FetchHistoryCommand.http.client(for: url, keepingBody: keepBody.bytes)
            recordedSource = RedactedURL(url).description
        } else {
            client = RandomNumberClient(latency: latency?.duration ?? .seconds(1))
            recordedSource = RandomNumberClient.sourceName
        }
        let store = try database.openForWriting(for: "fetch")
        let recorder = ReadBackRecorder(try await HistoryRecorder(store: store, source: recordedSource))
        let recording = FetchRecording(recorder: recorder, timeout: timeout?.duration)
        let table = FetchTable(color: Terminal.wantsColor(database.color) && format == .text, source: recordedSource)
        let rows = try FetchRows(table: format == .text ? table : nil, json: format == .json)
        let progress = ProgressLine(total: count, interval: interval.duration, recording: recording)
        // Cleared on every way out; a second signal, which ends the process
        // at once, clears it through the trap.
        defer { progress.stop() }

        let run = Self.fetching(count: count, interval: interval.duration, from: client, into: recording) { completed in
            progress.clear()
            progress.ended(completed)
            // Print what was recorded, read back, rather than what we meant to record.
            guard let fetch = recorder.takeRecorded(completed.id) else { return }
            // Nowhere to print: fetch no more (the loop checks for
            // cancellation before each fetch).
            if !rows.print(fetch) { withUnsafeCurrentTask { $0?.cancel() } }
        }
        // Weakly: the signal sources outlive the command, and a recording
        // they held would hold the store, whose closing at the end folds the
        // WAL back into the file.
        let trap = SignalTrap(beforeExit: ProgressLine.eraseBeforeExit) { [weak recording] signal in
            // Ctrl-C is the user's cancel; SIGTERM is the program being told
            // to stop (a shutdown, a CI time limit), noted before the task's
            // cancellation would call it the user's.
            if signal == SignalTrap.terminate { recording?.runningFetch?.noteCancel(.terminated) }
            run.cancel()
        }
        // The reader of standard output left (`| head -1`): stop now, the
        // fetch in flight cancelled, rather than after it ends.
        let reader = ReaderWatch.standardOutput { run.cancel() }
        progress.start()
        let completed = try await run.value
        // The array is closed however the run ended, unless nothing can be written any more.
        if !reader.hasReaderLeft { try? rows.end() }
        let writeFailure = rows.failure

        if let signal = trap.receivedSignal {
            throw ExitCode(128 + signal)
        }
        if writeFailure is OutputClosed { reader.readerLeft() }
        if reader.hasReaderLeft {
            // Quietly, and 0, as `export | head` and `list | head` end (and
            // ripgrep; git is killed by SIGPIPE, which the shell doesn't
            // report either): the reader took what it wanted.
            throw OutputClosed()
        }
        if let writeFailure { throw writeFailure }
        // This run's fetches, as recorded: its session.
        if count > 1 || !threshold.thresholds.isEmpty {
            let run = HistoryFilter(sessionID: recorder.history.session.id)
            let statistics = try await store.read { db in try db.statistics(matching: run) }
            progress.stop()
            if count > 1 {
                let topProblem = try await store.read { db in try db.statistics(matching: run, by: [.problem]).first }
                StandardError.write(RunSummary(statistics: statistics, topProblem: topProblem).line + "\n")
            }
            if !threshold.thresholds.isEmpty {
                return try ThresholdCheck.report(
                    ThresholdCheck.checks(threshold.thresholds, statistics: statistics, groupings: [], groups: [])
                )
            }
        }
        if !completed.allSatisfy({ if case .succeeded = $0.outcome { true } else { false } }) {
            throw ExitCode.failure
        }
    }

    /// The fetches, in a task of their own that is not the main actor's:
    /// they and `onEach` run on the recording's executor, and from one fetch
    /// to the next nothing waits for the main actor.
    private nonisolated static func fetching(
        count: Int, interval: Duration, from client: any APIClient, into recording: FetchRecording,
        onEach: @escaping @Sendable (CompletedFetch) -> Void
    ) -> Task<[CompletedFetch], any Error> {
        Task {
            // Values, not numbers: the HTTP source records any JSON answer.
            try await recording.fetch(count: count, interval: interval, source: { try await client.fetchValue() }, onEach: onEach)
        }
    }
}
