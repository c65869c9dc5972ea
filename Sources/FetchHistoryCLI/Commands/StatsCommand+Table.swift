import FetchHistory

// `stats --by` as a table, and `--compare` as text.
extension StatsCommand {
    /// A row of a `--by` table: its keys (one per grouping) and the group
    /// whose figures it shows — a group, or with two groupings a pair's.
    struct TableRow {
        var keys: [String]
        var group: StatisticsGroup
    }

    /// One row per group, or with two groupings one per pair (a group with
    /// no pair, such as a source with no problem, has no row).
    static func rows(_ groups: [StatisticsGroup], depth: Int) -> [TableRow] {
        guard depth == 2 else { return groups.map { TableRow(keys: [$0.key], group: $0) } }
        return groups.flatMap { group in group.subgroups.map { TableRow(keys: [group.key, $0.key], group: $0) } }
    }

    /// The counts, rate and latency percentiles per group (for problems:
    /// count, share, sources, hosts, first and last seen, an example),
    /// aligned and fitted to `width`: on a narrow screen the counts no group
    /// has go first, then the headers shorten (`OK`, `FAIL`, …), then the key
    /// is cut, then the columns a reader needs least go (`dropOrder`).
    static func table(
        _ groups: [StatisticsGroup], by groupings: [StatisticsGrouping], comparison: StatsComparison? = nil,
        width: Int? = Terminal.width
    ) -> String {
        let keys = groupings.map { grouping in
            // Only free text is cut: a day, an hour or an outcome is dropped columns for.
            let cut: TextTable.Cut? = switch grouping {
            case .source: .url
            case .host: .end
            case .problem: .words
            case .outcome, .day, .hour, .minute, .week, .session, .status: nil
            }
            return TextTable.Column(header: grouping.rawValue.uppercased(), cut: cut)
        }
        let rows = rows(groups, depth: groupings.count)
        let figures = groupings.contains(.problem) ? problemFigures : countFigures
        var columns = keys + figures.map(\.column)
        if comparison != nil {
            columns += [
                column("BEFORE"), column("CHANGE"),
            ] + (groupings.contains(.problem) ? [] : [column("RATE BEFORE", short: "RATE<")])
        }
        let table = TextTable(columns: columns, rows: rows.map { row in
            var cells = row.keys.map(\.terminalSafe) + figures.map { $0.cell(row.group) }
            if let comparison {
                let before = comparison.group(at: row.keys)
                cells += [String(before?.total ?? 0), before.map { signed(row.group.total - $0.total) } ?? "new"]
                if !groupings.contains(.problem) { cells.append(rate(before?.successRate)) }
            }
            return cells
        })
        return table.lines(width: width).map { $0 + "\n" }.joined()
    }

    /// A column of figures and how a group fills it.
    struct Figure {
        var column: TextTable.Column
        var cell: (StatisticsGroup) -> String
    }

    /// Fetches, a count per status, the success rate and percentiles.
    static var countFigures: [Figure] {
        let format = DurationArgument.format(milliseconds:)
        return [Figure(column: column("FETCHES", droppable: false)) { String($0.total) }]
            + statuses.map { status in
                Figure(column: column(status.rawValue.uppercased(), short: shortHeaders[status], order: status.rawValue)) {
                    String($0.counts[status, default: 0])
                }
            }
            + [Figure(column: column("SUCCESS RATE", short: "RATE", droppable: false)) { rate($0.successRate) }]
            + [("P50", \HistoryStatistics.Latency.p50), ("P90", \.p90), ("P95", \.p95), ("P99", \.p99)].map { name, path in
                Figure(column: column(name)) { group in group.latency.map { format($0[keyPath: path]) } ?? "-" }
            }
    }

    /// A problem's fetches, share, sources, hosts, first and last start and example.
    static var problemFigures: [Figure] {
        [
            Figure(column: column("FETCHES", droppable: false)) { String($0.total) },
            Figure(column: column("SHARE")) { rate($0.problem?.share) },
            Figure(column: column("SOURCES")) { $0.problem.map { String($0.sources) } ?? "-" },
            Figure(column: column("HOSTS")) { $0.problem.map { String($0.hosts) } ?? "-" },
            Figure(column: column("FIRST SEEN", short: "FIRST", rightAligned: false)) { $0.problem?.firstSeen.localDescription() ?? "-" },
            Figure(column: column("LAST SEEN", short: "LAST", rightAligned: false)) { $0.problem?.lastSeen.localDescription() ?? "-" },
            Figure(column: column("EXAMPLE", rightAligned: false)) { $0.problem.map { String($0.example.lowercased.prefix(8)) } ?? "-" },
        ]
    }

    /// A right-aligned column named `header`, going on a narrow screen in
    /// its place in `dropOrder` (under the name `order`) unless not `droppable`.
    static func column(
        _ header: String, short: String? = nil, order: String? = nil, droppable: Bool = true, rightAligned: Bool = true
    ) -> TextTable.Column {
        TextTable.Column(
            header: header, shortHeader: short, isRightAligned: rightAligned,
            dropOrder: droppable ? dropOrder.firstIndex(of: order ?? header) : nil
        )
    }

    private static let shortHeaders: [FetchStatus: String] = [
        .succeeded: "OK", .failed: "FAIL", .cancelled: "CANCEL", .timedOut: "TIMEOUT", .interrupted: "INTR", .running: "RUN",
    ]

    /// The columns that go first on a narrow screen: those a reader needs least.
    private static let dropOrder: [String] = [
        FetchStatus.running.rawValue, FetchStatus.interrupted.rawValue, "P99", "P95", FetchStatus.cancelled.rawValue,
        "FIRST SEEN", "RATE BEFORE", "P90", "SOURCES", FetchStatus.timedOut.rawValue, FetchStatus.failed.rawValue, "HOSTS",
        "P50", "EXAMPLE", "BEFORE", "SHARE", "LAST SEEN", FetchStatus.succeeded.rawValue, "CHANGE",
    ]

    /// `+3`, `-2` or `0`.
    static func signed(_ change: Int) -> String {
        change > 0 ? "+\(change)" : String(change)
    }

    /// The period compared with, and, for the totals (`totals`), each
    /// figure since `--since` beside the same before it, and the change.
    static func comparisonText(
        _ statistics: HistoryStatistics, _ comparison: StatsComparison, totals: Bool, width: Int? = Terminal.width
    ) -> String {
        let line = "compared with \(comparison.beforeSince.localDescription()) to \(comparison.beforeUntil.localDescription())\n"
        guard totals else { return line }
        let before = comparison.before
        let format = DurationArgument.format(milliseconds:)
        func duration(_ change: Int64) -> String { (change > 0 ? "+" : change < 0 ? "-" : "") + format(abs(change)) }
        var rows: [[String]] = [["fetches", String(statistics.total), String(before.total), signed(statistics.total - before.total)]]
        for status in statuses {
            let (now, then) = (statistics.counts[status, default: 0], before.counts[status, default: 0])
            rows.append([status.rawValue, String(now), String(then), signed(now - then)])
        }
        let rateChange = statistics.successRate.flatMap { now in before.successRate.map { decimal((now - $0) * 100, places: 1) + "pt" } }
        rows.append(["success rate", rate(statistics.successRate), rate(before.successRate), rateChange.map { $0.hasPrefix("-") ? $0 : "+" + $0 } ?? "-"])
        for (name, path) in [("p50", \HistoryStatistics.Latency.p50), ("p95", \.p95), ("p99", \.p99)] {
            let now = statistics.latency?[keyPath: path], then = before.latency?[keyPath: path]
            rows.append([name, now.map(format) ?? "-", then.map(format) ?? "-", now.flatMap { now in then.map { duration(now - $0) } } ?? "-"])
        }
        let table = TextTable(
            columns: [TextTable.Column(header: "")] + ["SINCE", "BEFORE", "CHANGE"].map { TextTable.Column(header: $0, isRightAligned: true) },
            rows: rows
        )
        return line + table.lines(width: width).map { $0 + "\n" }.joined()
    }
}
