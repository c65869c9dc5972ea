import FetchHistory

// `stats --format json`: everything `stats` prints. Keys keep their order
// from release to release: new ones come after those there were.
extension StatsCommand {
    static func json(
        _ statistics: HistoryStatistics, by breakdown: ([StatisticsGrouping], [StatisticsGroup]) = ([], []),
        over chart: (StatisticsGrouping, [StatisticsGroup])? = nil, comparison: StatsComparison? = nil,
        thresholds: [ThresholdCheck] = []
    ) -> String {
        var json = JSONWriter()
        json.beginObject()
        totals(statistics, into: &json)
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
        let (groupings, groups) = breakdown
        if groupings.isEmpty {
            json.null()
        } else {
            self.groups(groups, by: groupings[...], named: "groups", comparison: comparison, keys: [], into: &json)
        }
        if let (grouping, buckets) = chart {
            json.key("over")
            self.groups(buckets, by: [grouping], named: "buckets", comparison: nil, keys: [], into: &json)
        }
        if let comparison {
            json.key("compare")
            json.beginObject()
            json.key("since")
            json.timestamp(comparison.since)
            json.key("until")
            json.timestamp(comparison.until)
            json.key("before")
            json.beginObject()
            json.key("since")
            json.timestamp(comparison.beforeSince)
            json.key("until")
            json.timestamp(comparison.beforeUntil)
            totals(comparison.before, into: &json)
            json.endObject()
            json.key("change")
            change(
                total: statistics.total - comparison.before.total, statistics.successRate, comparison.before.successRate,
                statistics.latency, comparison.before.latency, into: &json
            )
            json.endObject()
        }
        if !thresholds.isEmpty {
            json.key("thresholds")
            ThresholdCheck.json(thresholds, into: &json)
        }
        json.endObject()
        json.newline()
        return json.text
    }

    /// `"total"`, `"counts"`, `"decidedBySource"`, `"successRate"`, `"latencyMs"`.
    private static func totals(_ statistics: HistoryStatistics, into json: inout JSONWriter) {
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
    }

    /// `{"grouping": …, name: [group, …]}`, each group `{"key", "total",
    /// "counts", "successRate", "latencyMs"}`, then, for a problem's
    /// fetches, `"share"`, `"sources"`, `"hosts"`, `"firstSeen"`,
    /// `"lastSeen"`, `"example"`; with `--compare`, `"before"`, `"change"`,
    /// `"new"`; with a second grouping, `"by"`: that grouping's groups.
    private static func groups(
        _ groups: [StatisticsGroup], by groupings: ArraySlice<StatisticsGrouping>, named name: String,
        comparison: StatsComparison?, keys: [String], into json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("grouping")
        json.string(groupings.first!.rawValue)
        json.key(name)
        json.beginArray()
        for group in groups {
            json.beginObject()
            json.key("key")
            json.string(group.key)
            figures(group, into: &json)
            if let comparison {
                let before = comparison.group(at: keys + [group.key])
                json.key("before")
                json.beginObject()
                figures(before ?? StatisticsGroup(key: group.key, counts: [:]), problemFields: group.problem != nil, into: &json)
                json.endObject()
                json.key("change")
                change(
                    total: group.total - (before?.total ?? 0), group.successRate, before?.successRate, group.latency, before?.latency,
                    into: &json
                )
                json.key("new")
                json.bool(before == nil)
            }
            if groupings.count > 1 {
                json.key("by")
                self.groups(group.subgroups, by: groupings.dropFirst(), named: name, comparison: comparison, keys: keys + [group.key], into: &json)
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// A group's figures after its key; a problem's fields when it has
    /// them (or, `problemFields`, null when a problem had no fetch then).
    private static func figures(_ group: StatisticsGroup, problemFields: Bool = false, into json: inout JSONWriter) {
        json.key("total")
        json.integer(group.total)
        json.key("counts")
        counts(group.counts, into: &json)
        json.key("successRate")
        rate(group.successRate, into: &json)
        json.key("latencyMs")
        latency(group.latency, into: &json)
        guard problemFields || group.problem != nil else { return }
        let problem = group.problem
        json.key("share")
        if let share = problem?.share { json.fragment(decimal(share, places: 6)) } else { json.null() }
        json.key("sources")
        json.integer(problem?.sources)
        json.key("hosts")
        json.integer(problem?.hosts)
        json.key("firstSeen")
        json.timestamp(problem?.firstSeen)
        json.key("lastSeen")
        json.timestamp(problem?.lastSeen)
        json.key("example")
        if let example = problem?.example { json.uuid(example) } else { json.null() }
    }

    /// `{"total": Δ, "successRate": Δ, "latencyMs": {Δ…}}`: now less before;
    /// a rate or latency null when either side has none.
    private static func change(
        total: Int, _ rate: Double?, _ rateBefore: Double?, _ latency: HistoryStatistics.Latency?,
        _ latencyBefore: HistoryStatistics.Latency?, into json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("total")
        json.integer(total)
        json.key("successRate")
        self.rate(rate.flatMap { now in rateBefore.map { now - $0 } }, into: &json)
        json.key("latencyMs")
        if let latency, let latencyBefore {
            self.latency(HistoryStatistics.Latency(
                p50: latency.p50 - latencyBefore.p50, p90: latency.p90 - latencyBefore.p90, p95: latency.p95 - latencyBefore.p95,
                p99: latency.p99 - latencyBefore.p99, max: latency.max - latencyBefore.max
            ), into: &json)
        } else {
            json.null()
        }
        json.endObject()
    }

    /// `{"p50":…,"p90":…,"p99":…,"max":…,"p95":…}` in milliseconds, or null
    /// (`p95` came later, so it comes last).
    private static func latency(_ latency: HistoryStatistics.Latency?, into json: inout JSONWriter) {
        guard let latency else { return json.null() }
        json.beginObject()
        for (name, milliseconds) in [("p50", latency.p50), ("p90", latency.p90), ("p99", latency.p99), ("max", latency.max), ("p95", latency.p95)] {
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
}
