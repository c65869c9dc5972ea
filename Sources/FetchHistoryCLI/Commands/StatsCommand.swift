import ArgumentParser
import FetchHistory
import FoundationEssentials

struct StatsCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count fetches per outcome, rank and chart the latency of successful ones.",
        discussion: """
            The success rate answers "how often did the source answer": succeeded ÷ (succeeded + \
            failed + timed-out). Fetches cancelled (by the user, by a newer tap, or because the \
            program was told to stop), interrupted, or still running count neither for nor \
            against the source.

            Percentiles are nearest-rank over the durations of succeeded fetches; the histogram \
            counts them in buckets of 10ms, 25ms, 50ms, 100ms, … 1m (bars on a terminal, plain \
            text otherwise). --by prints a table of the counts per source, host, outcome, session, \
            HTTP status (- for none), local minute, hour, day or week (the date of its Monday), or \
            problem, in place of the summary (--summary prints both). --by problem groups the \
            fetches that did not succeed by what went wrong — HTTP 503, timed out, or an error with \
            what varies (numbers, ids, quoted text, URLs, addresses) masked — most frequent first, \
            with each problem's share, sources, hosts, first and last start, and an example id \
            (show takes it). Two groupings (--by source,problem, or --by twice) give a row per pair. \
            --format csv gives the numbers as RFC 4180: with --by, a row per group; without, one \
            row of the totals and the latency percentiles in milliseconds.

            --compare, with --since, sets the period of equal length just before --since beside \
            each figure, and the change; a group with no fetch before is new.

            --over charts the fetches over time instead of the histogram: a line per local minute, \
            hour, day or week from the first with fetches to the last, with a bar for how many \
            started in it and one for the p90 latency of its succeeded fetches; three or more \
            without fetches in a row fold into one line. --format json and csv give every bucket's \
            numbers, those without fetches included.

            --threshold checks a figure against a limit after the output, one line each on \
            standard error, and exits 99 when any is crossed (0 when all are met); with --by, each \
            group is checked.

            Examples:
              fetch-history stats
              fetch-history stats --since 7d --source random --format json
              fetch-history stats --session 853a984f
              fetch-history stats --by source
              fetch-history stats --by problem --since 1d --compare
              fetch-history stats --by source,problem
              fetch-history stats --host 'ci-*' --by host,source --summary
              fetch-history stats --since 2d --by hour --format json
              fetch-history stats --since today --status 5xx --by source
              fetch-history stats --outcome succeeded --min-duration 1s
              fetch-history stats --grep 'HTTP 503' --by day
              fetch-history stats --since 1h --threshold 'failure-rate<1%' --threshold 'p95<500ms'
              fetch-history stats --since 2d --over hour
              fetch-history stats --since 30d --over day --format json
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var filters: FilterOptions

    @Option(
        help: ArgumentHelp(
            "Count per source, host, outcome, session, HTTP status, local minute, hour, day or week, or problem; two give a row per pair.",
            discussion: "Two groupings are separated by a comma or given as two options: --by source,problem",
            valueName: "grouping"
        ),
        completion: .list(StatisticsGrouping.allCases.map(\.rawValue)),
        transform: StatsCommand.groupings
    )
    var by: [[StatisticsGrouping]] = []

    @Option(help: ArgumentHelp(
        "Chart the count and p90 latency per local minute, hour, day or week, in place of the histogram.",
        valueName: "period"
    ))
    var over: ChartPeriod?

    @Flag(help: "With --by, print the summary and the histogram above the table too.")
    var summary = false

    @Flag(help: "With --since, show each figure for the period as long just before --since too, and the change.")
    var compare = false

    @Option(help: "text, json or csv.")
    var format = StatsFormat.text

    @OptionGroup var header: HeaderOption

    @OptionGroup var threshold: ThresholdOption

    /// The groupings `--by` names, in order.
    var groupings: [StatisticsGrouping] { by.flatMap { $0 } }

    func validate() throws {
        try filters.validateFilters()
        if header.noHeader, format != .csv {
            throw ValidationError("--no-header applies to --format csv only, not \(format.rawValue)")
        }
        if over != nil, !by.isEmpty {
            throw ValidationError("--over and --by cannot be used together; run stats once for each")
        }
        let groupings = groupings
        if groupings.count > 2 {
            throw ValidationError(
                "--by takes one or two groupings, not \(groupings.count) (\(groupings.map(\.rawValue).joined(separator: ",")))"
            )
        }
        if groupings.count == 2, groupings[0] == groupings[1] {
            throw ValidationError("--by names \(groupings[0].rawValue) twice; give two different groupings, such as source,problem")
        }
        if summary, by.isEmpty {
            throw ValidationError("--summary adds the summary above the --by table; without --by it is always printed")
        }
        if summary, format != .text {
            throw ValidationError("--summary applies to the text format only: \(format.rawValue) always holds the totals")
        }
        if compare, filters.range.since == nil {
            throw ValidationError("--compare needs --since: it compares the period since then with the one as long just before it")
        }
        if compare, over != nil {
            throw ValidationError("--compare and --over cannot be used together; chart a longer --since instead")
        }
    }

    /// The groupings of one --by: one, or two separated by a comma.
    static func groupings(_ text: String) throws -> [StatisticsGrouping] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { word in
            guard let grouping = StatisticsGrouping(rawValue: word.lowercased()) else {
                let shown = String(word.prefix(40)).terminalSafe + (word.count > 40 ? "…" : "")
                let names = StatisticsGrouping.allCases.map { "'\($0.rawValue)'" }
                throw ValidationError(
                    "'\(shown)' is not a grouping; use one or two of \(names.dropLast().joined(separator: ", ")) or \(names.last!)"
                )
            }
            return grouping
        }
    }

    /// The most buckets `--over` draws: eleven years of hours, ten weeks of minutes.
    static let bucketLimit = 100_000

    @MainActor func run() async throws {
        let groupings = over.map { [$0.grouping] } ?? groupings
        let (statistics, groups, comparison) = try await database.reading { history in
            let filter = try await filters.filter(in: history)
            let (statistics, groups) = try await history.statistics(matching: filter, by: groupings)
            guard compare, let earlier = StatsComparison.periodBefore(filter, now: TimeArgument.now) else {
                return (statistics, groups, StatsComparison?.none)
            }
            let (before, groupsBefore) = try await history.statistics(matching: earlier, by: groupings)
            return (statistics, groups, StatsComparison(
                filter: filter, before: earlier, now: TimeArgument.now, statistics: before, groups: groupsBefore
            ))
        }
        let output = OutputStream.standardOutput()
        let checks = ThresholdCheck.checks(threshold.thresholds, statistics: statistics, groupings: groupings, groups: groups)
        if let over {
            let buckets = try Self.buckets(groups, over: over)
            switch format {
            case .json: try output.write(Self.json(statistics, over: (over.grouping, buckets), thresholds: checks))
            case .csv: try output.write(Self.csv(statistics, by: [over.grouping], groups: buckets, header: !header.noHeader))
            case .text:
                let style: LatencyChart.Style = Terminal.isStandardOutput ? .blocks : .plain
                try output.write(Self.text(statistics, bars: style, histogram: false))
                let chart = OverTimeChart(style: style).lines(buckets, over: over.grouping, fitting: Terminal.width)
                if !chart.isEmpty { try output.write("\n" + chart.map { $0 + "\n" }.joined()) }
            }
        } else if format == .json {
            try output.write(Self.json(statistics, by: (groupings, groups), comparison: comparison, thresholds: checks))
        } else if format == .csv {
            try output.write(Self.csv(statistics, by: groupings, groups: groups, comparison: comparison, header: !header.noHeader))
        } else {
            var sections: [String] = []
            if groupings.isEmpty || summary { sections.append(Self.text(statistics, bars: Terminal.isStandardOutput ? .blocks : .plain)) }
            if let comparison { sections.append(Self.comparisonText(statistics, comparison, totals: groupings.isEmpty || summary)) }
            if !groupings.isEmpty { sections.append(Self.table(groups, by: groupings, comparison: comparison)) }
            try output.write(sections.joined(separator: "\n"))
        }
        try output.flush()
        try ThresholdCheck.report(checks)
    }

    static let statuses = HistoryStatistics.statusOrder

    /// Every bucket from the first group to the last, empty ones included.
    static func buckets(_ groups: [StatisticsGroup], over period: ChartPeriod) throws -> [StatisticsGroup] {
        guard let first = groups.first, let last = groups.last else { return [] }
        guard let keys = period.grouping.keys(from: first.key, through: last.key, limit: bucketLimit) else {
            throw ValidationError(
                "--over \(period.rawValue) would draw more than \(bucketLimit) \(period.rawValue)s; narrow it with --since or --until, or chart by a longer period"
            )
        }
        let byKey = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return keys.map { byKey[$0] ?? StatisticsGroup(key: $0, counts: [:]) }
    }

    /// The summary, its lines fitted to `width` cells (nil: no limit).
    static func text(
        _ statistics: HistoryStatistics, bars: LatencyChart.Style = .plain, histogram: Bool = true, width: Int? = Terminal.width
    ) -> String {
        var lines = ["fetches       \(statistics.total)"]
        for status in statuses {
            lines.append(status.rawValue.padded(to: 14) + "\(statistics.counts[status, default: 0])")
        }
        // The definition is printed with the figure: a rate that leaves fetches out must say which.
        let succeeded = statistics.counts[.succeeded, default: 0]
        let rateLine = "success rate  " + rate(statistics.successRate) + "  (\(succeeded) succeeded of "
            + "\(statistics.decidedCount) that succeeded, failed or timed out)"
        // On a narrow screen the definition shortens to its figures.
        lines.append(rateLine.count <= width ?? .max ? rateLine
            : "success rate  " + rate(statistics.successRate) + "  (\(succeeded) of \(statistics.decidedCount))")
        if let latency = statistics.latency {
            lines.append(latencyLine(latency, width: width))
            guard histogram else { return lines.joined(separator: "\n") + "\n" }
            lines.append("")
            lines.append("latency of succeeded fetches")
            lines += LatencyChart(style: bars).lines(statistics.histogram, fitting: width)
        } else {
            lines.append("latency       - (no succeeded fetches)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `latency       p50 12ms  p90 40ms  p95 52ms  p99 80ms  max 95ms`; on a
    /// narrow screen the figures are set one space apart, then p90 goes,
    /// then p99: p50, p95 (what SLOs name) and max stay.
    static func latencyLine(_ latency: HistoryStatistics.Latency, width: Int?) -> String {
        let format = DurationArgument.format(milliseconds:)
        let figures = [
            ("p50", latency.p50), ("p90", latency.p90), ("p95", latency.p95), ("p99", latency.p99), ("max", latency.max),
        ].map { (name: $0.0, text: "\($0.0) \(format($0.1))") }
        let tries: [(separator: String, dropped: Set<String>)] = [
            ("  ", []), (" ", []), (" ", ["p90"]), (" ", ["p90", "p99"]),
        ]
        var line = ""
        for attempt in tries {
            line = "latency       " + figures.filter { !attempt.dropped.contains($0.name) }.map(\.text).joined(separator: attempt.separator)
            if line.count <= width ?? .max { break }
        }
        return line
    }

    /// `50.0%`, or `-` when there is no rate.
    static func rate(_ rate: Double?, places: Int = 1) -> String {
        rate.map { Self.decimal($0 * 100, places: places) + "%" } ?? "-"
    }

    /// `value` rounded to `places` decimals, as `printf("%.*f")` writes it.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return (value < 0 && scaled > 0 ? "-" : "") + "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
