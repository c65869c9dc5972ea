import ArgumentParser
import FetchHistory
import FoundationEssentials

struct ExportCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the history as JSON, oldest first, streamed row by row.",
        discussion: """
            Each fetch is one record of 18 fields, always in this order:
              id, session         the fetch's id and its session's
              source              random, or the URL (secrets redacted)
              outcome             succeeded, failed, cancelled, timed-out, interrupted
              cancelReason        user, superseded or terminated, for a cancelled fetch
              value, error        what it fetched (any JSON), or why it failed
              startedAt, endedAt  ISO 8601 UTC with milliseconds
              durationMs          endedAt - startedAt
              status, bytes       the HTTP status and body size, for a URL
              tappedAt            when fetch was tapped
              timeoutMs           the timeout it ran under
              endedBy, endedByAt  answer, failure, cancel, fetch or timeout; when
              answerValue         what the source answered, or
              answerError         how it failed (replay re-drives a session from these)
            A field with nothing to say is null. `import` reads json and jsonl back. --fields \
            id,outcome,durationMs gives those fields only, in that order (json, jsonl, csv); csv \
            gives each field as one cell (a value as its JSON text), an empty cell for null.

            --format junit writes JUnit XML, the test report CI systems show: a test suite per \
            session (--by source: per source), a test case per fetch; failed and timed-out \
            fetches are failures with their error, cancelled ones skipped, interrupted ones \
            errors; each --threshold adds a test case to a suite named thresholds, failing \
            when the figure over the fetches exported crosses it. --format har writes HAR 1.2, which browser developer tools and HTTP tools \
            open: an entry per fetch of an HTTP(S) URL (the others are skipped and counted on \
            standard error), a page per session. --format otlp writes OpenTelemetry's OTLP \
            file format, which trace backends and the OpenTelemetry Collector read: JSON \
            lines, each one ExportTraceServiceRequest; a span per ended fetch, named after its \
            source, a trace per session, ids derived from the history's own (the same fetches \
            give the same bytes). None of the three is read back by `import`.

            With --output, the file is written under a temporary name and renamed at the end, \
            so a failed export never leaves a half-written file under that name. `--output -` \
            is standard output, as `import -` is standard input.

            Examples:
              fetch-history export --format jsonl --output history.jsonl
              fetch-history export --output - | gzip > history.json.gz
              fetch-history export --outcome failed --since 7d | jq .error
              fetch-history export --grep 'timed out' --source 127.0.0.1 --format jsonl
              fetch-history export --outcome failed,timed-out --since yesterday --until today
              fetch-history export --status 4xx,5xx --min-duration 500ms --format jsonl
              fetch-history export --format junit --since 1d --output fetches.xml
              fetch-history export --format junit --since 1h --threshold 'failure-rate<1%' --output ci.xml
              fetch-history export --format har --source example.com --output fetches.har
              fetch-history export --format otlp --since 1d --output traces.jsonl
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions

    @Option(help: "json (one array), jsonl (one object per line), csv (RFC 4180, a header line first), junit (JUnit XML), har (HAR 1.2) or otlp (OpenTelemetry traces, JSON lines).")
    var format = ExportFormat.json

    @OptionGroup var junit: JUnitOption

    @OptionGroup var threshold: ThresholdOption

    @OptionGroup var fields: FieldsOption
    @OptionGroup var header: HeaderOption

    func validate() throws {
        try filters.validateFilters()
        _ = try fields.keys()
        try header.validate(for: format)
        if fields.fields != nil, format.records == nil {
            throw ValidationError("--fields applies to --format json, jsonl and csv only, not \(format.rawValue)")
        }
        try junit.validate(format: format.rawValue)
        if !threshold.thresholds.isEmpty, format != .junit {
            throw ValidationError("--threshold applies to --format junit only, not \(format.rawValue); stats --threshold checks any history")
        }
    }

    @Option(
        name: [.customShort("o", allowingJoined: true), .long],
        help: ArgumentHelp("Write to this file instead of standard output (- is standard output).", valueName: "file"),
        completion: .file()
    )
    var output: String?

    @MainActor func run() async throws {
        try await database.reading { history in
            try await AtomicFile.write(to: output, sparing: database.filePath) { try await write(history, to: $0) }
        }
    }

    @MainActor private func write(_ history: any HistoryReader, to output: OutputStream) async throws {
        guard let records = format.records else {
            switch format {
            case .junit:
                _ = try await junit.write(history, matching: filters.filter(in: history), thresholds: threshold.thresholds, to: output)
            case .otlp: try await writeOTLP(history, to: output)
            default: try await writeHAR(history, to: output)
            }
            return
        }
        // The history hands over one fetch at a time and has returned before
        // the writer is touched here again: never two threads at once.
        nonisolated(unsafe) var writer = FetchWriter(output: output, format: records, fields: try fields.keys(), header: !header.noHeader)
        try writer.begin()
        try await history.forEachFetch(matching: filters.filter(in: history)) { try writer.write($0) }
        try writer.end()
    }

    @MainActor private func writeOTLP(_ history: any HistoryReader, to output: OutputStream) async throws {
        let otlp = try await stream(history, through: OTLPWriter(scopeVersion: FetchHistoryCommand.version), to: output)
        if otlp.running > 0 {
            let fetches = otlp.running == 1 ? "1 fetch" : "\(otlp.running) fetches"
            StandardError.write("left out \(fetches) still running (exported once ended); wrote \(otlp.written)\n")
        }
    }

    @MainActor private func writeHAR(_ history: any HistoryReader, to output: OutputStream) async throws {
        var har = HARWriter()
        var start: [UInt8] = []
        har.begin(into: &start, creatorVersion: FetchHistoryCommand.version)
        har = try await stream(history, through: har, startingWith: start, to: output)
        if har.skipped > 0 {
            let fetches = har.skipped == 1 ? "1 fetch" : "\(har.skipped) fetches"
            StandardError.write("skipped \(fetches) whose source is not an HTTP(S) URL; wrote \(har.written)\n")
        }
    }

    /// Streams the fetches through `writer` into `output`, 64 KiB at a
    /// time, after `start`; returns the writer, for its counts.
    @MainActor private func stream<Writer: FetchStreamWriter>(
        _ history: any HistoryReader, through writer: Writer, startingWith start: [UInt8] = [], to output: OutputStream
    ) async throws -> Writer {
        // Touched from the history's callback only, one fetch at a time, as `write` does.
        nonisolated(unsafe) var writer = writer
        nonisolated(unsafe) var pending = start
        nonisolated(unsafe) let output = output
        try await history.forEachFetch(matching: filters.filter(in: history)) { fetch in
            writer.write(fetch, into: &pending)
            if pending.count >= 1 << 16 { try output.write(emptying: &pending) }
        }
        writer.end(into: &pending)
        try output.write(emptying: &pending)
        return writer
    }
}
