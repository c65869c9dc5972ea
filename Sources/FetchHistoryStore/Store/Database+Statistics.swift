import FetchHistoryModel
import FoundationEssentials

// Statistics: the counts, percentiles and groups of `stats`.
extension Database {
    /// Counts per status and latency percentiles of succeeded fetches.
    public func statistics(matching filter: HistoryFilter = .all) throws -> HistoryStatistics {
        let filter = try resolvingSources(filter)
        let (conditions, values) = HistorySQL.conditions(for: filter)
        // The durations are read with the outcome written literally (see `succeededDurations`).
        var others = filter
        others.status = nil
        others.statuses = nil
        let (otherConditions, otherValues) = HistorySQL.conditions(for: others)
        let counts = try statusCounts(conditions, values)
        var latency: HistoryStatistics.Latency?
        var histogram = LatencyBucket.empty
        let succeededCount = counts[.succeeded, default: 0]
        if succeededCount > 0, filter.accepts(.succeeded) {
            latency = try self.latency(
                of: succeededCount, sql: HistorySQL.succeededDurations(otherConditions), values: otherValues,
                histogram: &histogram
            )
        }
        return HistoryStatistics(total: counts.values.reduce(0, +), counts: counts, latency: latency, histogram: histogram)
    }

    /// Fetches per status, counted from the outcome index alone; the few
    /// running rows are then split into running and interrupted on their
    /// own, so the count never reads the table.
    private func statusCounts(_ conditions: String, _ values: [SQLValue]) throws -> [FetchStatus: Int] {
        var counts: [FetchStatus: Int] = [:]
        try forEachRow(HistorySQL.countByOutcome(conditions), values) { row in
            guard let outcome = row.optionalText(0) else { return }
            counts[HistoryRow.status(outcome: outcome, isAlive: nil), default: 0] += Int(row.int64(1))
        }
        try forEachRow(HistorySQL.countRunningByLiveness(conditions), values) { row in
            counts[HistoryRow.status(outcome: nil, isAlive: row.optionalInt64(0)), default: 0] += Int(row.int64(1))
        }
        return counts
    }

    /// Nearest-rank p50/p90/p99 and the maximum of `count` durations that
    /// `sql` returns in ascending order (from the partial index on succeeded
    /// durations), each counted in its `histogram` bucket: one pass, picking
    /// the ranks as they go by, nothing stored.
    private func latency(
        of count: Int, sql: String, values: [SQLValue], histogram: inout [LatencyBucket]
    ) throws -> HistoryStatistics.Latency {
        let ranks = [50, 90, 99].map { ($0 * count + 99) / 100 }
        var picked: [Int64] = []
        var rank = 0
        var last: Int64 = 0
        var bucket = 0
        try forEachRow(sql, values) { row in
            rank += 1
            last = row.int64(0)
            if picked.count < ranks.count, rank == ranks[picked.count] { picked.append(last) }
            // Ascending: the bucket only ever moves up.
            while bucket + 1 < LatencyBucket.bounds.count, last >= LatencyBucket.bounds[bucket + 1] { bucket += 1 }
            histogram[bucket].count += 1
        }
        while picked.count < ranks.count { picked.append(last) }
        return HistoryStatistics.Latency(p50: picked[0], p90: picked[1], p99: picked[2], max: last)
    }

    /// The fetches matching `filter`, counted per status within each
    /// source, status, local day or local hour; groups in key order
    /// (statuses in `HistoryStatistics.statusOrder`, days and hours in time order).
    public func statistics(matching filter: HistoryFilter = .all, by grouping: StatisticsGrouping) throws -> [StatisticsGroup] {
        let filter = try resolvingSources(filter)
        let (conditions, values) = HistorySQL.conditions(for: filter)
        var groups: [StatisticsGroup] = []
        if grouping == .outcome {
            // The counts per status are the groups: read from the outcome index, as `statistics` does.
            let counts = try statusCounts(conditions, values)
            groups = HistoryStatistics.statusOrder.compactMap { status in
                counts[status].map { StatisticsGroup(key: status.rawValue, counts: [status: $0]) }
            }
        } else {
            try forEachRow(HistorySQL.countByGroup(grouping, conditions), values) { row in
                let key = row.optionalText(0) ?? ""
                if groups.last?.key != key { groups.append(StatisticsGroup(key: key, counts: [:])) }
                let status = HistoryRow.status(outcome: row.optionalText(1), isAlive: row.optionalInt64(2))
                groups[groups.count - 1].counts[status, default: 0] += Int(row.int64(3))
            }
        }
        guard filter.accepts(.succeeded), groups.contains(where: { $0.counts[.succeeded, default: 0] > 0 }) else { return groups }
        // Each group's succeeded durations, in order: one more read, of the succeeded rows only.
        var others = filter
        others.status = nil
        others.statuses = nil
        let (otherConditions, otherValues) = HistorySQL.conditions(for: others)
        var durations: [String: [Int64]] = [:]
        try forEachRow(HistorySQL.succeededDurationsByGroup(grouping, otherConditions), otherValues) { row in
            durations[row.optionalText(0) ?? "", default: []].append(row.int64(1))
        }
        for index in groups.indices {
            groups[index].latency = HistoryStatistics.Latency(ascending: durations[groups[index].key]?.sorted() ?? [])
        }
        return groups
    }
}

extension HistorySQL {
    static func countByOutcome(_ conditions: String) -> String {
        "SELECT outcome, count(*) FROM fetch\(conditions) GROUP BY 1"
    }

    static func countRunningByLiveness(_ conditions: String) -> String {
        "SELECT \(isAlive), count(*) FROM fetch\(and(conditions, "outcome IS NULL")) GROUP BY 1"
    }

    /// Durations of succeeded fetches, ascending, read from the partial index
    /// `fetch_succeeded_by_duration`. The outcome is written literally: SQLite
    /// only uses a partial index when the query's own text implies its WHERE.
    static func succeededDurations(_ conditions: String) -> String {
        "SELECT duration_ms FROM fetch INDEXED BY fetch_succeeded_by_duration\(and(conditions, "outcome = 'succeeded'")) ORDER BY duration_ms"
    }

    /// The key a fetch is grouped by: its source, or the local day or hour
    /// it started ("localtime" is the C library's, so `TZ` applies).
    /// (Per outcome, `Database` reads the counts per status instead: the
    /// outcome index alone answers them.)
    static func groupKey(_ grouping: StatisticsGrouping) -> String {
        switch grouping {
        case .source: "source"
        case .host: "host"
        case .outcome: "outcome"
        case .day: "strftime('%Y-%m-%d', started_at / 1000, 'unixepoch', 'localtime')"
        case .hour: "strftime('%Y-%m-%d %H:00', started_at / 1000, 'unixepoch', 'localtime')"
        case .minute: "strftime('%Y-%m-%d %H:%M', started_at / 1000, 'unixepoch', 'localtime')"
        // 'weekday 0' moves on to the Sunday ending the week (a Sunday stays): six days before is its Monday.
        case .week: "date(started_at / 1000, 'unixepoch', 'localtime', 'weekday 0', '-6 days')"
        case .session: "session_id"
        case .status: "coalesce(CAST(http_status AS TEXT), '-')"
        }
    }

    /// The key and duration of each succeeded fetch.
    static func succeededDurationsByGroup(_ grouping: StatisticsGrouping, _ conditions: String) -> String {
        "SELECT \(groupKey(grouping)), duration_ms FROM fetch\(and(conditions, "outcome = 'succeeded'"))"
    }

    /// Fetches per key, stored outcome and liveness (the latter only for
    /// fetches not ended), keys in order.
    static func countByGroup(_ grouping: StatisticsGrouping, _ conditions: String) -> String {
        "SELECT \(groupKey(grouping)), outcome, \(isAlive), count(*) FROM fetch\(conditions) GROUP BY 1, 2, 3 ORDER BY 1"
    }
}
