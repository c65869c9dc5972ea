import FetchHistoryModel
import Foundation
import PostgresNIO

// Statistics: counted by the server (one read-only transaction), except
// with `--grep`, whose matching is Swift's: then the matching rows are read
// and counted here (`StatisticsTally`).
extension PostgresHistory {
    package nonisolated(nonsending) func statistics(
        matching filter: HistoryFilter, by grouping: StatisticsGrouping?
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup]) {
        try await run("read statistics") { [self] in
            try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                if let text = filter.containing { return try await tallied(filter, needle: TextSearch.Needle(text), by: grouping) }
                let overall = try await counted(filter)
                guard let grouping else { return (overall, []) }
                return (overall, try await groups(filter, by: grouping))
            }
        }
    }

    /// Counts per status, and the latency of succeeded fetches, from the server.
    private func counted(_ filter: HistoryFilter) async throws -> HistoryStatistics {
        var query = ServerQuery("SELECT outcome, count(*) FROM \(Self.fetchTable)")
        query.appendConditions(filter)
        query.append(" GROUP BY 1")
        var counts: [FetchStatus: Int] = [:]
        for try await (outcome, count) in try await connection.query(query.query, logger: logger).decode((String, Int).self) {
            counts[FetchStatus(rawValue: outcome) ?? .failed, default: 0] += count
        }
        let succeeded = counts[.succeeded, default: 0]
        var statistics = HistoryStatistics(total: counts.values.reduce(0, +), counts: counts, latency: nil)
        guard succeeded > 0 else { return statistics }
        var others = filter
        others.status = .succeeded
        // Nearest rank, as the file's statistics: the ⌈p·n/100⌉-th duration.
        let ranks = [50, 90, 99].map { Int64(($0 * succeeded + 99) / 100) }
        var ranked = ServerQuery("SELECT duration_ms, rank FROM (SELECT duration_ms, row_number() OVER (ORDER BY duration_ms) AS rank FROM \(Self.fetchTable)")
        ranked.appendConditions(others)
        ranked.append(") ranked WHERE rank = ANY(\(ranked.bind(ranks))) OR rank = \(ranked.bind(Int64(succeeded))) ORDER BY rank")
        var byRank: [Int64: Int64] = [:]
        for try await (duration, rank) in try await connection.query(ranked.query, logger: logger).decode((Int64, Int64).self) {
            byRank[rank] = duration
        }
        statistics.latency = HistoryStatistics.Latency(
            p50: byRank[ranks[0]] ?? 0, p90: byRank[ranks[1]] ?? 0, p99: byRank[ranks[2]] ?? 0, max: byRank[Int64(succeeded)] ?? 0
        )
        var buckets = ServerQuery()
        let bounds = buckets.bind(LatencyBucket.bounds)
        buckets.append("SELECT width_bucket(duration_ms, \(bounds)::bigint[]), count(*) FROM \(Self.fetchTable)")
        buckets.appendConditions(others)
        buckets.append(" GROUP BY 1")
        for try await (bucket, count) in try await connection.query(buckets.query, logger: logger).decode((Int, Int).self) {
            // width_bucket numbers the buckets from 1; below the first bound is 0.
            statistics.histogram[max(bucket - 1, 0)].count += count
        }
        return statistics
    }

    /// The counts per status within each group, from the server. Local days
    /// and hours are the client's: the server counts per quarter of an hour
    /// in UTC (every time zone is a whole number of quarters off UTC), and
    /// each quarter is then put in its local day or hour here.
    private func groups(_ filter: HistoryFilter, by grouping: StatisticsGrouping) async throws -> [StatisticsGroup] {
        let key = switch grouping {
        case .source: "source"
        case .host: "host"
        case .outcome: "outcome"
        case .day, .hour, .week: "(started_at / 900000 * 900000)::text"
        case .minute: "(started_at / 60000 * 60000)::text"
        case .session: "session_id::text"
        case .status: "coalesce(http_status::text, '-')"
        }
        var query = ServerQuery("SELECT \(key), outcome, count(*) FROM \(Self.fetchTable)")
        query.appendConditions(filter)
        query.append(" GROUP BY 1, 2")
        var tally = StatisticsTally(grouping: grouping)
        func groupKey(_ text: String) -> String {
            switch grouping {
            case .day, .hour, .minute, .week: StatisticsTally.localKey(Timestamp(millisecondsSince1970: Int64(text) ?? 0), grouping)
            default: text
            }
        }
        var succeeded = 0
        for try await (text, outcome, count) in try await connection.query(query.query, logger: logger).decode((String, String, Int).self) {
            let status = FetchStatus(rawValue: outcome) ?? .failed
            if status == .succeeded { succeeded += count }
            tally.count(status, key: groupKey(text), times: count)
        }
        guard succeeded > 0 else { return tally.groups }
        // Each group's succeeded durations, for its percentiles: the local keys are the client's.
        var others = filter
        others.status = .succeeded
        others.statuses = nil
        var durations = ServerQuery("SELECT \(key), duration_ms FROM \(Self.fetchTable)")
        durations.appendConditions(others)
        for try await (text, duration) in try await connection.query(durations.query, logger: logger).decode((String, Int64).self) {
            tally.add(duration: duration, key: groupKey(text))
        }
        return tally.groups
    }

    /// Everything counted here, from the rows `--grep` keeps.
    private func tallied(
        _ filter: HistoryFilter, needle: TextSearch.Needle, by grouping: StatisticsGrouping?
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup]) {
        var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
        query.appendConditions(filter)
        var overall = StatisticsTally(grouping: nil)
        var grouped = StatisticsTally(grouping: grouping)
        try await withCursor(query) { row in
            let fetch = try Fetch(serverRow: row)
            guard ServerQuery.keeps(fetch, for: needle) else { return true }
            overall.add(fetch)
            if grouping != nil { grouped.add(fetch) }
            return true
        }
        return (overall.statistics(withLatency: filter.accepts(.succeeded)), grouping == nil ? [] : grouped.groups)
    }
}

/// Statistics counted one fetch (or one group of them) at a time, as the
/// file's store counts them: statuses, nearest-rank percentiles and the
/// histogram of succeeded durations, and groups in key order.
struct StatisticsTally {
    let grouping: StatisticsGrouping?
    private var counts: [FetchStatus: Int] = [:]
    private var durations: [Int64] = []
    private var grouped: [String: [FetchStatus: Int]] = [:]
    private var groupDurations: [String: [Int64]] = [:]

    init(grouping: StatisticsGrouping?) {
        self.grouping = grouping
    }

    mutating func add(_ fetch: Fetch) {
        counts[fetch.status, default: 0] += 1
        if fetch.status == .succeeded, let duration = fetch.durationMilliseconds { durations.append(duration) }
        if let grouping {
            let key = switch grouping {
            case .source: fetch.source
            case .host: fetch.host
            case .outcome: fetch.status.rawValue
            case .day, .hour, .minute, .week: Self.localKey(fetch.startedAt, grouping)
            case .session: fetch.sessionID.lowercased
            case .status: fetch.response.map { String($0.status) } ?? "-"
            }
            grouped[key, default: [:]][fetch.status, default: 0] += 1
            if fetch.status == .succeeded, let duration = fetch.durationMilliseconds { groupDurations[key, default: []].append(duration) }
        }
    }

    /// A succeeded fetch's duration, for its group's percentiles.
    mutating func add(duration: Int64, key: String) {
        groupDurations[key, default: []].append(duration)
    }

    mutating func count(_ status: FetchStatus, key: String, times: Int) {
        grouped[key, default: [:]][status, default: 0] += times
    }

    /// `2026-11-22`, `2026-11-22 14:00`, `2026-11-22 14:05` or the week's
    /// Monday, in the user's time zone.
    static func localKey(_ time: Timestamp, _ grouping: StatisticsGrouping) -> String {
        let local = time.localDescription()
        return switch grouping {
        case .hour: local.prefix(13) + ":00"
        case .minute: String(local.prefix(16))
        case .week: StatisticsGrouping.weekKey(ofDay: local.prefix(10))
        default: String(local.prefix(10))
        }
    }

    /// The totals; latencies only `withLatency` (when succeeded fetches were asked for).
    func statistics(withLatency: Bool) -> HistoryStatistics {
        var statistics = HistoryStatistics(total: counts.values.reduce(0, +), counts: counts, latency: nil)
        guard !durations.isEmpty, withLatency else { return statistics }
        let sorted = durations.sorted()
        let rank = { (percent: Int) in sorted[(percent * sorted.count + 99) / 100 - 1] }
        statistics.latency = HistoryStatistics.Latency(p50: rank(50), p90: rank(90), p99: rank(99), max: sorted[sorted.count - 1])
        for duration in sorted {
            let bucket = LatencyBucket.bounds.lastIndex { $0 <= duration } ?? 0
            statistics.histogram[bucket].count += 1
        }
        return statistics
    }

    /// The groups in key order (statuses in `HistoryStatistics.statusOrder`).
    var groups: [StatisticsGroup] {
        guard grouping == .outcome else {
            return grouped.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { group($0, counts: grouped[$0]!) }
        }
        return HistoryStatistics.statusOrder.compactMap { status in
            grouped[status.rawValue].map { group(status.rawValue, counts: $0) }
        }
    }

    private func group(_ key: String, counts: [FetchStatus: Int]) -> StatisticsGroup {
        StatisticsGroup(key: key, counts: counts, latency: HistoryStatistics.Latency(ascending: groupDurations[key]?.sorted() ?? []))
    }
}
