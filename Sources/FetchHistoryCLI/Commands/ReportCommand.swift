import ArgumentParser
import FetchHistory
import FoundationEssentials

struct ReportCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report to open in a browser, or JUnit XML for CI.",
        discussion: """
            The HTML report is one self-contained file: a summary (fetches by outcome, success \
            rate, p50/p90/p99, the time span, hosts and sources); the problems (every fetch that \
            did not succeed, grouped by what went wrong, most first, each with its count, sources, \
            hosts, first and last seen, a sparkline of when, and example fetches); a timeline with \
            a lane per session grouped by host (--lanes host or source: a lane per host or per \
            source) and a bar per fetch (its outcome in colour, shape and words; the tap, a \
            cancel, a timeout's deadline and an interrupted end marked; its details on hover or \
            focus); a latency histogram; the 20 slowest fetches; a table per source, the worst \
            failure rate first and marked; and the failures grouped by problem. It makes no \
            request when opened, works from a file, draws its pictures itself (SVG), and follows \
            the reader's light or dark setting. Past 2,000 fetches the timeline is drawn in time \
            slices, each naming its outcomes, top problems and sources, and the fetch table is \
            left out; the page says so.

            --format junit writes what `export --format junit` writes: a test suite per session \
            (--by source: per source), a test case per fetch; each --threshold adds a test case to a \
            suite named thresholds, failing when crossed.

            The file is written under a temporary name and renamed at the end: a failed report \
            leaves no half-written file. `--output -` is standard output.

            Examples:
              fetch-history report
              fetch-history report --since 1d --output last-day.html
              fetch-history report --lanes source
              fetch-history report --outcome failed,timed-out --host 'ci-*'
              fetch-history report --format junit --by source --output fetches.xml
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions

    @Option(help: "html (a page to open in a browser) or junit (JUnit XML).")
    var format = ReportFormatOption.html

    @OptionGroup var junit: JUnitOption

    @OptionGroup var threshold: ThresholdOption

    @Option(help: ArgumentHelp(
        "What a lane of the HTML timeline holds: a session (grouped by host; past 60, a host), a host or a source.",
        valueName: "session|host|source"
    ))
    var lanes: HTMLReport.Lanes?

    @Option(
        name: [.customShort("o", allowingJoined: true), .long],
        help: ArgumentHelp("The file to write (- is standard output); report.html, or report.xml for junit.", valueName: "file"),
        completion: .file()
    )
    var output: String?

    func validate() throws {
        try filters.validateFilters()
        try junit.validate(format: format.rawValue)
        if lanes != nil, format != .html {
            throw ValidationError("--lanes applies to --format html only, not \(format.rawValue)")
        }
        if !threshold.thresholds.isEmpty, format != .junit {
            throw ValidationError("--threshold applies to --format junit only, not \(format.rawValue); stats --threshold checks any history")
        }
    }

    @MainActor func run() async throws {
        let output = output ?? (format == .junit ? "report.xml" : "report.html")
        let count = try await database.reading { history in
            var count = 0
            try await AtomicFile.write(to: output, sparing: database.filePath) { count = try await write(history, to: $0) }
            return count
        }
        // The file's name was perhaps not typed: say where the report went.
        if output != "-" { StandardError.write("wrote \(output): \(count == 1 ? "1 fetch" : "\(count) fetches")\n") }
    }

    /// Writes the report and returns how many fetches it holds.
    @MainActor private func write(_ history: any HistoryReader, to output: OutputStream) async throws -> Int {
        let filter = try await filters.filter(in: history)
        guard format == .html else { return try await junit.write(history, matching: filter, thresholds: threshold.thresholds, to: output) }
        let newest = try await history.fetches(matching: filter, limit: 1).first
        let making = ReportInProgress(HTMLReport(
            newestStart: newest?.startedAt, generatedAt: .now, scope: Self.scope(), lanes: lanes ?? .session
        ))
        try await history.forEachFetch(matching: filter) { making.report.add($0) }
        let report = making.report
        try output.write(report.html(nonce: Self.nonce()))
        try output.flush()
        return report.total
    }

    /// The filters as they were typed, for the page's first line: what it is a report of.
    private static func scope() -> String {
        var words = CommandLine.arguments.dropFirst()[...]
        var kept: [String] = []
        let notFilters: Set<String> = ["-d", "--database", "-o", "--output", "--format", "--by", "--lanes", "--color"]
        while let word = words.popFirst() {
            if word == "report" && kept.isEmpty { continue }
            if notFilters.contains(word) { _ = words.popFirst(); continue }
            if notFilters.contains(where: { word.hasPrefix($0 + "=") }) { continue }
            kept.append(word)
        }
        return kept.joined(separator: " ")
    }

    /// A fresh secret per page: only the page's own script carries it, so
    /// its Content-Security-Policy runs nothing else.
    private static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}

extension HTMLReport.Lanes: ExpressibleByArgument {}

/// What `report` writes.
enum ReportFormatOption: String, ExpressibleByArgument, CaseIterable {
    case html, junit
}

/// The report `forEachFetch`'s closure adds each fetch to. A `var` the
/// closure captured had its exclusivity checked at run time for every fetch
/// added (1% of a report); the read calls the closure with one fetch at a
/// time, and nothing else touches the report until the read is over.
private final class ReportInProgress: @unchecked Sendable {
    @exclusivity(unchecked) var report: HTMLReport

    init(_ report: HTMLReport) {
        self.report = report
    }
}
