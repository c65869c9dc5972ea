import CSQLite
import FetchHistoryModel
import FoundationEssentials

// Reading: the queries behind `list`, `show`, `stats`, `export` and replay,
// each call inside a `HistoryStore.read`.
extension Database {
    /// Fetches matching `filter`, newest first; at most `limit` when given.
    /// Fetches started in the same millisecond come in reverse recording order.
    public func fetches(matching filter: HistoryFilter = .all, limit: Int? = nil) throws -> [Fetch] {
        let (sql, values) = HistorySQL.newestFirst(try resolvingSources(filter), limit: limit)
        return try rows(sql, values, HistoryRow.fetch)
    }

    /// The plan SQLite chooses for `fetches(matching:)`, one line per step:
    /// lets tests prove a listing is served by an index.
    func queryPlan(forFetchesMatching filter: HistoryFilter) throws -> [String] {
        let (sql, values) = HistorySQL.newestFirst(filter, limit: 20)
        return try rows("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) }
    }

    /// Calls `body` with each fetch matching `filter`, oldest first (ties in
    /// recording order, which an import keeps), reading one row at a time so
    /// memory stays flat for any history size.
    public func forEachFetch(matching filter: HistoryFilter = .all, _ body: (Fetch) throws -> Void) throws {
        let (sql, values) = HistorySQL.oldestFirst(try resolvingSources(filter))
        try forEachRow(sql, values) { row in try body(HistoryRow.fetch(row)) }
    }

    /// The fetch whose id is `prefix` or starts with it.
    public func fetch(idPrefix prefix: String) throws -> Fetch {
        let (low, high) = try HistorySQL.idRange(prefix)
        let matches = try rows(HistorySQL.fetchByIDRange, [.text(low), .text(high)], HistoryRow.fetch)
        return try Self.unique(matches, kind: "fetch", prefix: prefix)
    }

    /// The session whose id is `prefix` or starts with it.
    public func session(idPrefix prefix: String) throws -> Session {
        let (low, high) = try HistorySQL.idRange(prefix)
        let matches = try rows(HistorySQL.sessionByIDRange, [.text(low), .text(high)], HistoryRow.session)
        return try Self.unique(matches, kind: "session", prefix: prefix)
    }

    /// The session started last (of several in one millisecond, the one
    /// recorded last), or nil for an empty history.
    public func newestSession() throws -> Session? {
        try firstRow(HistorySQL.newestSession, [], HistoryRow.session)
    }

    /// The session with `id`, or nil.
    public func session(id: UUID) throws -> Session? {
        try firstRow(HistorySQL.sessionByID, [.text(id.lowercased)], HistoryRow.session)
    }

    /// Counts per status and latency percentiles of succeeded fetches.
    public func statistics(matching filter: HistoryFilter = .all) throws -> HistoryStatistics {
        let filter = try resolvingSources(filter)
        let (conditions, values) = HistorySQL.conditions(for: filter)
        var others = filter
        others.status = nil
        let (otherConditions, otherValues) = HistorySQL.conditions(for: others)
        let counts = try statusCounts(conditions, values)
        var latency: HistoryStatistics.Latency?
        var histogram = LatencyBucket.empty
        let succeededCount = counts[.succeeded, default: 0]
        if succeededCount > 0, filter.status == nil || filter.status == .succeeded {
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
        guard grouping != .outcome else {
            // The counts per status are the groups: read from the outcome index, as `statistics` does.
            let counts = try statusCounts(conditions, values)
            return HistoryStatistics.statusOrder.compactMap { status in
                counts[status].map { StatisticsGroup(key: status.rawValue, counts: [status: $0]) }
            }
        }
        var groups: [StatisticsGroup] = []
        try forEachRow(HistorySQL.countByGroup(grouping, conditions), values) { row in
            let key = row.optionalText(0) ?? ""
            if groups.last?.key != key { groups.append(StatisticsGroup(key: key, counts: [:])) }
            let status = HistoryRow.status(outcome: row.optionalText(1), isAlive: row.optionalInt64(2))
            groups[groups.count - 1].counts[status, default: 0] += Int(row.int64(3))
        }
        return groups
    }

    private static func unique<T: Identifiable>(
        _ matches: [T], kind: String, prefix: String
    ) throws(HistoryError) -> T where T.ID == UUID {
        guard let first = matches.first else { throw .notFound(kind: kind, prefix: prefix) }
        guard matches.count == 1 else {
            throw .ambiguous(kind: kind, prefix: prefix, candidates: matches.map(\.id.lowercased))
        }
        return first
    }

    /// Every text value in every table, joined: lets tests prove a secret
    /// was never written anywhere.
    func allText() throws -> String {
        let tables = try rows(HistorySQL.tableNames) { $0.text(0) }
        var text: [String] = []
        for table in tables {
            try forEachRow(HistorySQL.everyRow(of: table)) { row in
                for column in 0..<sqlite3_column_count(row.handle) { text.append(row.optionalText(column) ?? "") }
            }
        }
        return text.joined(separator: "\n")
    }
}
