import FetchHistory

// `stats --format csv`: a row per group, or per pair of two groupings, or
// one row of the totals. Columns keep their order from release to release:
// new ones come after those there were.
extension StatsCommand {
    /// The counts as CSV: a row per group (or pair) with `--by`, else one
    /// row of the totals, with the latency percentiles (milliseconds; empty
    /// with no succeeded fetch). The success rate and a problem's share are
    /// fractions (0.5), empty when there are none. A problem's row then has
    /// its share, sources, hosts, first and last start and example; with
    /// `--compare`, every row the fetches before, their success rate, the
    /// change in fetches and whether the group is new.
    static func csv(
        _ statistics: HistoryStatistics, by groupings: [StatisticsGrouping], groups: [StatisticsGroup],
        comparison: StatsComparison? = nil, header: Bool
    ) -> String {
        // The totals are a row with no key.
        let rows = groupings.isEmpty
            ? [TableRow(keys: [], group: StatisticsGroup(key: "", counts: statistics.counts, latency: statistics.latency))]
            : Self.rows(groups, depth: groupings.count)
        let problems = groupings.contains(.problem)
        var names = groupings.map(\.rawValue) + ["fetches"] + statuses.map(\.rawValue)
            + ["successRate", "p50Ms", "p90Ms", "p99Ms", "maxMs", "p95Ms"]
        if problems { names += ["share", "sources", "hosts", "firstSeen", "lastSeen", "example"] }
        if comparison != nil { names += ["beforeFetches", "beforeSuccessRate", "change", "new"] }
        var text = header ? CSV.line(names) : ""
        for row in rows {
            let group = row.group
            let latency = group.latency
            var cells: [String?] = row.keys + [String(group.total)] + statuses.map { String(group.counts[$0, default: 0]) }
                + [group.successRate.map { String($0) }]
                + [latency?.p50, latency?.p90, latency?.p99, latency?.max, latency?.p95].map { $0.map(String.init) }
            if problems {
                let problem = group.problem
                cells += [
                    problem.map { String($0.share) }, problem.map { String($0.sources) }, problem.map { String($0.hosts) },
                    problem?.firstSeen.iso8601, problem?.lastSeen.iso8601, problem?.example.lowercased,
                ]
            }
            if let comparison {
                let before = groupings.isEmpty ? comparison.totalsGroup : comparison.group(at: row.keys)
                cells += [
                    String(before?.total ?? 0), before?.successRate.map { String($0) }, String(group.total - (before?.total ?? 0)),
                    String(before == nil),
                ]
            }
            text += CSV.line(cells)
        }
        return text
    }
}

extension StatsComparison {
    /// The totals of the period before, as a group (a row of the totals' CSV).
    var totalsGroup: StatisticsGroup? {
        StatisticsGroup(key: "", counts: before.counts, latency: before.latency)
    }
}
