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
            text otherwise). --by adds a table of the counts per source, host, outcome, session, HTTP \
            status (- for none), or local minute, hour, day or week (the date of its Monday). \
            --format csv gives the numbers as RFC 4180: with --by, a row per group; without, one \
            row of the totals and the latency percentiles in milliseconds.

            --over charts the fetches over time instead of the histogram: a line per local minute, \
            hour, day or week from the first with fetches to the last, with a bar for how many \
            started in it and one for the p90 latency of its succeeded fetches; three or more \
            without fetches in a row fold into one line. --format json and csv give every bucket's \
            numbers, those without fetches included.

            Examples:
              fetch-history stats
              fetch-history stats --since 7d --source random --format json
              fetch-history stats --session 853a984f
              fetch-history stats --by source
              fetch-history stats --host 'ci-*' --by host
              fetch-history stats --since 2d --by hour --format json
              fetch-history stats --since today --status 5xx --by source
              fetch-history stats --outcome succeeded --min-duration 1s
              fetch-history stats --grep 'HTTP 503' --by day
              fetch-history stats --since 2d --over hour
              fetch-history stats --since 30d --over day --format json
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var filters: FilterOptions

    @Option(help: ArgumentHelp(
        "Also count per source, host, outcome, session, HTTP status, or local minute, hour, day or week (named by its Monday).",
        valueName: "grouping"
    ))
    var by: StatisticsGrouping?

    @Option(help: ArgumentHelp(
        "Chart the count and p90 latency per local minute, hour, day or week, in place of the histogram.",
        valueName: "period"
    ))
    var over: ChartPeriod?

    @Option(help: "text, json or csv.")
    var format = StatsFormat.text

    @OptionGroup var header: HeaderOption

    func validate() throws {
        try filters.validateFilters()
        if header.noHeader, format != .csv {
            throw ValidationError("--no-header applies to --format csv only, not \(format.rawValue)")
        }
        if over != nil, by != nil {
            throw ValidationError("--over and --by cannot be used together; run stats once for each")
        }
    }

    /// The most buckets `--over` draws: eleven years of hours, ten weeks of minutes.
    static let bucketLimit = 100_000

    @MainActor func run() async throws {
        let (statistics, groups) = try await database.reading { history in
            try await history.statistics(matching: filters.filter(in: history), by: by ?? over?.grouping)
        }
        let output = OutputStream.standardOutput()
        if let over {
            let buckets = try Self.buckets(groups, over: over)
            switch format {
            case .json: try output.write(Self.json(statistics, over: (over.grouping, buckets)))
            case .csv: try output.write(Self.csv(statistics, by: (over.grouping, buckets), header: !header.noHeader))
            case .text:
                let style: LatencyChart.Style = Terminal.isStandardOutput ? .blocks : .plain
                try output.write(Self.text(statistics, bars: style, histogram: false))
                let chart = OverTimeChart(style: style).lines(buckets, over: over.grouping, fitting: Terminal.width)
                if !chart.isEmpty { try output.write("\n" + chart.map { $0 + "\n" }.joined()) }
            }
        } else if format == .json {
            try output.write(Self.json(statistics, by: by.map { ($0, groups) }))
        } else if format == .csv {
            try output.write(Self.csv(statistics, by: by.map { ($0, groups) }, header: !header.noHeader))
        } else {
            try output.write(Self.text(statistics, bars: Terminal.isStandardOutput ? .blocks : .plain))
            if let by { try output.write("\n" + Self.table(groups, by: by)) }
        }
        try output.flush()
    }

    private static let statuses = HistoryStatistics.statusOrder

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
            let format = DurationArgument.format(milliseconds:)
            lines.append("latency       p50 \(format(latency.p50))  p90 \(format(latency.p90))  p99 \(format(latency.p99))  max \(format(latency.max))")
            guard histogram else { return lines.joined(separator: "\n") + "\n" }
            lines.append("")
            lines.append("latency of succeeded fetches")
            lines += LatencyChart(style: bars).lines(statistics.histogram, fitting: width)
        } else {
            lines.append("latency       - (no succeeded fetches)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `50.0%`, or `-` when there is no rate.
    static func rate(_ rate: Double?) -> String {
        rate.map { Self.decimal($0 * 100, places: 1) + "%" } ?? "-"
    }

    /// The counts, rate and latency percentiles per group, aligned and
    /// fitted to `width`: on a narrow screen the counts no group has go
    /// first, then the headers shorten (`OK`, `FAIL`, …), then the key is
    /// cut, then the columns a reader needs least go (`dropOrder`).
    static func table(_ groups: [StatisticsGroup], by grouping: StatisticsGrouping, width: Int? = Terminal.width) -> String {
        // Only free text is cut: a day, an hour or an outcome is dropped columns for.
        let cut: TextTable.Cut? = switch grouping {
        case .source: .url
        case .host: .end
        case .outcome, .day, .hour, .minute, .week, .session, .status: nil
        }
        let key = TextTable.Column(header: grouping.rawValue.uppercased(), cut: cut)
        let counts = statuses.map { status in
            TextTable.Column(
                header: status.rawValue.uppercased(), shortHeader: shortHeaders[status], isRightAligned: true,
                dropOrder: dropOrder.firstIndex(of: status.rawValue)
            )
        }
        let percentiles = ["P50", "P90", "P99"].map { name in
            TextTable.Column(header: name, isRightAligned: true, dropOrder: dropOrder.firstIndex(of: name))
        }
        let format = DurationArgument.format(milliseconds:)
        let table = TextTable(
            columns: [key, TextTable.Column(header: "FETCHES", isRightAligned: true)] + counts
                + [TextTable.Column(header: "SUCCESS RATE", shortHeader: "RATE", isRightAligned: true)] + percentiles,
            rows: groups.map { group in
                [group.key.terminalSafe, String(group.total)] + statuses.map { String(group.counts[$0, default: 0]) }
                    + [rate(group.successRate)]
                    + [group.latency?.p50, group.latency?.p90, group.latency?.p99].map { $0.map(format) ?? "-" }
            }
        )
        return table.lines(width: width).map { $0 + "\n" }.joined()
    }

    /// The counts as CSV: a row per group with `--by`, else one row of the
    /// totals with the latency percentiles (milliseconds; empty with no
    /// succeeded fetch). The success rate is a fraction (0.5), empty when none.
    static func csv(_ statistics: HistoryStatistics, by breakdown: (StatisticsGrouping, [StatisticsGroup])?, header: Bool) -> String {
        // The totals are a group with no key: one row of the same cells.
        let (keyHeader, rows): ([String], [(key: [String?], group: StatisticsGroup)]) = if let (grouping, groups) = breakdown {
            ([grouping.rawValue], groups.map { ([$0.key], $0) })
        } else {
            ([], [([], StatisticsGroup(key: "", counts: statistics.counts, latency: statistics.latency))])
        }
        var text = header
            ? CSV.line(keyHeader + ["fetches"] + statuses.map(\.rawValue) + ["successRate", "p50Ms", "p90Ms", "p99Ms", "maxMs"]) : ""
        for (key, group) in rows {
            let latency = group.latency
            text += CSV.line(
                key + [String(group.total)] + statuses.map { String(group.counts[$0, default: 0]) } + [group.successRate.map { String($0) }]
                    + [latency?.p50, latency?.p90, latency?.p99, latency?.max].map { $0.map(String.init) }
            )
        }
        return text
    }

    private static let shortHeaders: [FetchStatus: String] = [
        .succeeded: "OK", .failed: "FAIL", .cancelled: "CANCEL", .timedOut: "TIMEOUT", .interrupted: "INTR", .running: "RUN",
    ]

    /// The columns that go first on a narrow screen: those a reader needs least.
    private static let dropOrder: [String] = [
        FetchStatus.running.rawValue, FetchStatus.interrupted.rawValue, "P99", FetchStatus.cancelled.rawValue, "P90",
        FetchStatus.timedOut.rawValue, FetchStatus.failed.rawValue, "P50", FetchStatus.succeeded.rawValue,
    ]

    static func json(
        _ statistics: HistoryStatistics, by breakdown: (StatisticsGrouping, [StatisticsGroup])? = nil,
        over chart: (StatisticsGrouping, [StatisticsGroup])? = nil
    ) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("total")
        json.integer(statistics.total)
        json.key("counts")
        counts(statistics.counts, into: &json)
        json.key("decidedBySource")
        json.integer(statistics.decidedCount)
        json.key("successRate")
        rate(statistics.successRate, into: &json)
        json.key("latencyMs")
        latency(statistics.latency, into: &json)
        json.key("histogram")
        json.beginArray()
        for bucket in statistics.histogram {
            json.beginObject()
            json.key("fromMs")
            json.integer(bucket.fromMilliseconds)
            json.key("toMs")
            json.integer(bucket.toMilliseconds)
            json.key("count")
            json.integer(bucket.count)
            json.endObject()
        }
        json.endArray()
        json.key("by")
        groups(breakdown, named: "groups", into: &json)
        if let chart {
            json.key("over")
            groups(chart, named: "buckets", into: &json)
        }
        json.endObject()
        json.newline()
        return json.text
    }

    /// `{"grouping": …, name: [{"key", "total", "counts", "successRate", "latencyMs"}, …]}`, or null.
    private static func groups(_ groups: (StatisticsGrouping, [StatisticsGroup])?, named name: String, into json: inout JSONWriter) {
        guard let (grouping, groups) = groups else { return json.null() }
        json.beginObject()
        json.key("grouping")
        json.string(grouping.rawValue)
        json.key(name)
        json.beginArray()
        for group in groups {
            json.beginObject()
            json.key("key")
            json.string(group.key)
            json.key("total")
            json.integer(group.total)
            json.key("counts")
            counts(group.counts, into: &json)
            json.key("successRate")
            rate(group.successRate, into: &json)
            json.key("latencyMs")
            latency(group.latency, into: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// `{"p50":…,"p90":…,"p99":…,"max":…}` in milliseconds, or null.
    private static func latency(_ latency: HistoryStatistics.Latency?, into json: inout JSONWriter) {
        guard let latency else { return json.null() }
        json.beginObject()
        for (name, milliseconds) in [("p50", latency.p50), ("p90", latency.p90), ("p99", latency.p99), ("max", latency.max)] {
            json.key(name)
            json.integer(milliseconds)
        }
        json.endObject()
    }

    /// Every status, 0 when none.
    private static func counts(_ counts: [FetchStatus: Int], into json: inout JSONWriter) {
        json.beginObject()
        for status in statuses {
            json.key(status.rawValue)
            json.integer(counts[status, default: 0])
        }
        json.endObject()
    }

    private static func rate(_ rate: Double?, into json: inout JSONWriter) {
        if let rate { json.fragment(Self.decimal(rate, places: 6)) } else { json.null() }
    }

    /// `value` rounded to `places` decimals, as `printf("%.*f")` writes it.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

extension StatisticsGrouping: ExpressibleByArgument {}
