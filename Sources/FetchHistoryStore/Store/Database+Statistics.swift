import FetchHistoryModel
import FoundationEssentials

// Statistics: the counts, percentiles and groups of `stats`.
extension Database {
    /// Counts per status and latency percentiles of succeeded fetches.
    public func statistics(matching filter: HistoryFilter = .all) throws -> HistoryStatistics {
        let filter = try resolvingSources(filter)
        let reads = StatisticsReads(filter)
        let counts = try statusCounts(reads.conditions, reads.values)
        var latency: HistoryStatistics.Latency?
        var histogram = LatencyBucket.empty
        let succeededCount = counts[.succeeded, default: 0]
        if succeededCount > 0, filter.accepts(.succeeded) {
            latency = try self.latency(of: succeededCount, sql: reads.durations, values: reads.durationValues, histogram: &histogram)
        }
        return HistoryStatistics(total: counts.values.reduce(0, +), counts: counts, latency: latency, histogram: histogram)
    }

    /// The plans SQLite chooses for `statistics(matching:)`'s counts and
    /// durations, one line per step: lets tests prove neither reads the
    /// whole history for a few fetches.
    func queryPlans(forStatisticsMatching filter: HistoryFilter) throws -> [String] {
        let reads = StatisticsReads(try resolvingSources(filter))
        return try rows("EXPLAIN QUERY PLAN " + HistorySQL.countByOutcome(reads.conditions), reads.values) { $0.text(3) }
            + rows("EXPLAIN QUERY PLAN " + reads.durations, reads.durationValues) { $0.text(3) }
    }

    /// What `statistics(matching:)` reads for a filter: the conditions of
    /// its counts, and its query of succeeded durations.
    private struct StatisticsReads {
        let conditions: String
        let values: [SQLValue]
        let durations: String
        let durationValues: [SQLValue]

        init(_ filter: HistoryFilter) {
            (conditions, values) = HistorySQL.conditions(for: filter)
            // The durations are read with the outcome written literally (see `succeededDurations`).
            var others = filter
            others.status = nil
            others.statuses = nil
            let (otherConditions, otherValues) = HistorySQL.conditions(for: others)
            durations = HistorySQL.succeededDurations(otherConditions, ofOneSession: filter.sessionID != nil)
            durationValues = otherValues
        }
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

    /// Nearest-rank p50/p90/p95/p99 and the maximum of `count` durations
    /// that `sql` returns in ascending order (from the partial index on
    /// succeeded durations), each counted in its `histogram` bucket: one
    /// pass, picking the ranks as they go by, nothing stored.
    private func latency(
        of count: Int, sql: String, values: [SQLValue], histogram: inout [LatencyBucket]
    ) throws -> HistoryStatistics.Latency {
        let ranks = HistoryStatistics.Latency.percents.map { HistoryStatistics.Latency.rank($0, of: count) }
        var picked: [Int64] = []
        var rank = 0
        var last: Int64 = 0
        var bucket = 0
        try forEachRow(sql, values) { row in
            rank += 1
            last = row.int64(0)
            // Two percentiles may share a rank (p95 and p99 of a few fetches).
            while picked.count < ranks.count, rank == ranks[picked.count] { picked.append(last) }
            // Ascending: the bucket only ever moves up.
            while bucket + 1 < LatencyBucket.bounds.count, last >= LatencyBucket.bounds[bucket + 1] { bucket += 1 }
            histogram[bucket].count += 1
        }
        while picked.count < ranks.count { picked.append(last) }
        return HistoryStatistics.Latency(ranked: picked, max: last)
    }

    /// The fetches matching `filter`, counted per status within each group
    /// of one grouping (source, status, local day, …, problem).
    public func statistics(matching filter: HistoryFilter = .all, by grouping: StatisticsGrouping) throws -> [StatisticsGroup] {
        try statistics(matching: filter, by: [grouping])
    }

    /// The fetches matching `filter`, counted per status within each group
    /// of one or two groupings (`HistoryReader.statistics(matching:by:)`):
    /// groups in key order (statuses in `HistoryStatistics.statusOrder`,
    /// days and hours in time order), problems most frequent first.
    public func statistics(matching filter: HistoryFilter = .all, by groupings: [StatisticsGrouping]) throws -> [StatisticsGroup] {
        guard !groupings.isEmpty else { return [] }
        let filter = try resolvingSources(filter)
        return groupings.contains(.problem) ? try problemGroups(filter, by: groupings) : try groups(filter, by: groupings)
    }

    /// The groups of groupings that are not `problem`.
    private func groups(_ filter: HistoryFilter, by groupings: [StatisticsGrouping]) throws -> [StatisticsGroup] {
        let (conditions, values) = HistorySQL.conditions(for: filter)
        var tally = GroupTally(groupings)
        var succeeded = 0
        if groupings == [.outcome] {
            // The counts per status are the groups: read from the outcome index, as `statistics` does.
            for (status, count) in try statusCounts(conditions, values) { tally.count(status, keys: [status.rawValue], times: count) }
            succeeded = tally.groups.first { $0.key == FetchStatus.succeeded.rawValue }?.total ?? 0
        } else {
            let keyCount = Int32(groupings.count)
            try forEachRow(HistorySQL.countByGroups(groupings, conditions), values) { row in
                let status = HistoryRow.status(outcome: row.optionalText(keyCount), isAlive: row.optionalInt64(keyCount + 1))
                let count = Int(row.int64(keyCount + 2))
                if status == .succeeded { succeeded += count }
                tally.count(status, keys: (0..<keyCount).map { row.optionalText($0) ?? "" }, times: count)
            }
        }
        guard filter.accepts(.succeeded), succeeded > 0 else { return tally.groups }
        // Each group's succeeded durations: one more read, of the succeeded rows only.
        var others = filter
        others.status = nil
        others.statuses = nil
        let (otherConditions, otherValues) = HistorySQL.conditions(for: others)
        let keyCount = Int32(groupings.count)
        try forEachRow(HistorySQL.succeededDurationsByGroups(groupings, otherConditions), otherValues) { row in
            tally.add(duration: row.int64(keyCount), keys: (0..<keyCount).map { row.optionalText($0) ?? "" })
        }
        return tally.groups
    }

    /// The groups of problems (`ProblemTally`): the fetches that did not
    /// succeed, read grouped by what their key depends on, with sources and
    /// hosts, so each distinct error is masked once; then the fetches
    /// started when each group was last seen, for its example.
    private func problemGroups(_ filter: HistoryFilter, by groupings: [StatisticsGrouping]) throws -> [StatisticsGroup] {
        let (conditions, values) = HistorySQL.conditions(for: filter)
        var tally = ProblemTally(groupings: groupings)
        let other = tally.other
        // Columns after the other grouping's key, when there is one.
        let at: Int32 = other == nil ? 0 : 1
        func parts(_ row: Row) -> ProblemTally.Parts {
            ProblemTally.Parts(
                otherKey: other == nil ? nil : row.optionalText(0) ?? "",
                status: HistoryRow.status(outcome: row.optionalText(at), isAlive: row.optionalInt64(at + 1)),
                httpStatus: row.optionalInt64(at + 2).map { Int(truncatingIfNeeded: $0) }, error: row.optionalText(at + 3)
            )
        }
        try forEachRow(HistorySQL.problemRows(other, conditions), values) { row in
            tally.add(ProblemTally.Row(
                parts(row), source: row.text(at + 4), host: row.text(at + 5), count: Int(row.int64(at + 6)),
                first: row.int64(at + 7), last: row.int64(at + 8)
            ))
        }
        let times = tally.lastSeenTimes
        if !times.isEmpty {
            let moments = "[" + times.map(String.init).joined(separator: ",") + "]"
            try forEachRow(HistorySQL.problemExamples(other, conditions), values + [.text(moments)]) { row in
                guard let id = UUID(uuidString: row.text(at + 5)) else { return }
                tally.offerExample(parts(row), startedAt: row.int64(at + 4), id: id)
            }
        }
        guard case .problemWithin(let outer) = tally.layout else { return tally.groups(within: []) }
        return tally.groups(within: try groups(filter, by: [outer]))
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
    /// Not for `ofOneSession`: a session's fetches are found through its own
    /// index and sorted, where the partial index would be read whole (every
    /// succeeded fetch of the history, for the few of `fetch --count 5`'s
    /// summary: a second at a million).
    static func succeededDurations(_ conditions: String, ofOneSession: Bool) -> String {
        let index = ofOneSession ? "" : " INDEXED BY fetch_succeeded_by_duration"
        return "SELECT duration_ms FROM fetch\(index)\(and(conditions, "outcome = 'succeeded'")) ORDER BY duration_ms"
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
        case .problem: preconditionFailure("a problem's key is computed in Swift (ProblemTally), never by SQL")
        }
    }

    /// The keys and duration of each succeeded fetch.
    static func succeededDurationsByGroups(_ groupings: [StatisticsGrouping], _ conditions: String) -> String {
        "SELECT \(groupings.map(groupKey).joined(separator: ", ")), duration_ms FROM fetch\(and(conditions, "outcome = 'succeeded'"))"
    }

    /// Fetches per keys, stored outcome and liveness (the latter only for
    /// fetches not ended).
    static func countByGroups(_ groupings: [StatisticsGrouping], _ conditions: String) -> String {
        let keys = groupings.map(groupKey).joined(separator: ", ")
        let positions = (1...groupings.count + 2).map(String.init).joined(separator: ", ")
        return "SELECT \(keys), outcome, \(isAlive), count(*) FROM fetch\(conditions) GROUP BY \(positions)"
    }

    /// The fetches that did not succeed (a running one has no problem
    /// either: `ProblemTally` leaves it out), grouped by what a problem's
    /// key depends on, and by source and host, so that they are counted as
    /// sets: the other grouping's key (when there is one), outcome,
    /// liveness, HTTP status, error, source, host, how many, first and last start.
    static func problemRows(_ other: StatisticsGrouping?, _ conditions: String) -> String {
        let key = other.map { groupKey($0) + ", " } ?? ""
        let positions = (1...(other == nil ? 6 : 7)).map(String.init).joined(separator: ", ")
        return "SELECT \(key)outcome, \(isAlive), http_status, error, source, host, count(*), min(started_at), max(started_at) "
            + "FROM fetch\(and(conditions, "outcome IS NOT 'succeeded'")) GROUP BY \(positions)"
    }

    /// The fetches that did not succeed started at one of the moments in
    /// the JSON array bound last: the other grouping's key, outcome,
    /// liveness, HTTP status, error, start and id, for `ProblemTally.offerExample`.
    static func problemExamples(_ other: StatisticsGrouping?, _ conditions: String) -> String {
        let key = other.map { groupKey($0) + ", " } ?? ""
        let moments = "outcome IS NOT 'succeeded' AND started_at IN (SELECT value FROM json_each(?))"
        return "SELECT \(key)outcome, \(isAlive), http_status, error, started_at, id FROM fetch\(and(conditions, moments))"
    }
}
