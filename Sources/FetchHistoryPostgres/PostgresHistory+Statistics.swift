import FetchHistoryModel
import Foundation
import PostgresNIO

// Statistics: counted by the server (one read-only transaction), except
// with `--grep` or `--problem`, whose matching is Swift's: then the
// matching rows are read and counted here (`StatisticsTally`). Problems are
// keyed here too, from rows the server grouped (`ProblemTally`).
extension PostgresHistory {
    package nonisolated(nonsending) func statistics(
        matching filter: HistoryFilter, by groupings: [StatisticsGrouping]
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup]) {
        try await run("read statistics") { [self] in
            try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                let check = ClientCheck(filter)
                if !check.isEmpty { return try await tallied(filter, check: check, by: groupings) }
                let overall = try await counted(filter)
                guard !groupings.isEmpty else { return (overall, []) }
                if groupings.contains(.problem) { return (overall, try await problemGroups(filter, by: groupings)) }
                return (overall, try await groups(filter, by: groupings))
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
        let ranks = HistoryStatistics.Latency.percents.map { Int64(HistoryStatistics.Latency.rank($0, of: succeeded)) }
        var ranked = ServerQuery("SELECT duration_ms, rank FROM (SELECT duration_ms, row_number() OVER (ORDER BY duration_ms) AS rank FROM \(Self.fetchTable)")
        ranked.appendConditions(others)
        ranked.append(") ranked WHERE rank = ANY(\(ranked.bind(ranks))) OR rank = \(ranked.bind(Int64(succeeded))) ORDER BY rank")
        var byRank: [Int64: Int64] = [:]
        for try await (duration, rank) in try await connection.query(ranked.query, logger: logger).decode((Int64, Int64).self) {
            byRank[rank] = duration
        }
        statistics.latency = HistoryStatistics.Latency(ranked: ranks.map { byRank[$0] ?? 0 }, max: byRank[Int64(succeeded)] ?? 0)
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

    /// The key of `grouping` the server groups by. Local days and hours
    /// are the client's: the server counts per quarter of an hour in UTC
    /// (every time zone is a whole number of quarters off UTC), and each
    /// quarter is then put in its local day or hour (`localKey`).
    private static func serverKey(_ grouping: StatisticsGrouping) -> String {
        switch grouping {
        case .source: "source"
        case .host: "host"
        case .outcome: "outcome"
        case .day, .hour, .week: "(started_at / 900000 * 900000)::text"
        case .minute: "(started_at / 60000 * 60000)::text"
        case .session: "session_id::text"
        case .status: "coalesce(http_status::text, '-')"
        case .problem: preconditionFailure("a problem's key is computed in Swift (ProblemTally), never by SQL")
        }
    }

    /// The key `text` (what `serverKey` gave) stands for.
    private static func localKey(_ text: String, _ grouping: StatisticsGrouping) -> String {
        switch grouping {
        case .day, .hour, .minute, .week: StatisticsTally.localKey(Timestamp(millisecondsSince1970: Int64(text) ?? 0), grouping)
        default: text
        }
    }

    /// The counts per status within each group of one or two groupings
    /// (not `problem`), from the server.
    private func groups(_ filter: HistoryFilter, by groupings: [StatisticsGrouping]) async throws -> [StatisticsGroup] {
        let keys = groupings.map(Self.serverKey).joined(separator: ", ")
        let positions = (1...groupings.count + 1).map(String.init).joined(separator: ", ")
        var query = ServerQuery("SELECT \(keys), outcome, count(*) FROM \(Self.fetchTable)")
        query.appendConditions(filter)
        query.append(" GROUP BY \(positions)")
        var tally = GroupTally(groupings)
        var succeeded = 0
        for try await row in try await connection.query(query.query, logger: logger) {
            let cells = row.makeRandomAccess()
            let keyTexts = try groupings.indices.map { Self.localKey(try cells[$0].decode(String.self), groupings[$0]) }
            let status = FetchStatus(rawValue: try cells[groupings.count].decode(String.self)) ?? .failed
            let count = try cells[groupings.count + 1].decode(Int.self)
            if status == .succeeded { succeeded += count }
            tally.count(status, keys: keyTexts, times: count)
        }
        guard succeeded > 0 else { return tally.groups }
        // Each group's succeeded durations, for its percentiles: the local keys are the client's.
        var others = filter
        others.status = .succeeded
        others.statuses = nil
        var durations = ServerQuery("SELECT \(keys), duration_ms FROM \(Self.fetchTable)")
        durations.appendConditions(others)
        for try await row in try await connection.query(durations.query, logger: logger) {
            let cells = row.makeRandomAccess()
            let keyTexts = try groupings.indices.map { Self.localKey(try cells[$0].decode(String.self), groupings[$0]) }
            tally.add(duration: try cells[groupings.count].decode(Int64.self), keys: keyTexts)
        }
        return tally.groups
    }

    /// The groups of problems, as the file's store counts them: the fetches
    /// that did not succeed grouped by what a problem's key depends on, with
    /// sources and hosts; then those started when each group was last seen.
    private func problemGroups(_ filter: HistoryFilter, by groupings: [StatisticsGrouping]) async throws -> [StatisticsGroup] {
        var tally = ProblemTally(groupings: groupings)
        let other = tally.other
        let key = other.map { Self.serverKey($0) + ", " } ?? ""
        let at = other == nil ? 0 : 1
        func parts(_ cells: PostgresRandomAccessRow) throws -> ProblemTally.Parts {
            ProblemTally.Parts(
                otherKey: try other.map { Self.localKey(try cells[0].decode(String.self), $0) },
                status: FetchStatus(rawValue: try cells[at].decode(String.self)) ?? .failed,
                httpStatus: try cells[at + 1].decode(Int?.self), error: try cells[at + 2].decode(String?.self)
            )
        }
        var rows = ServerQuery("SELECT \(key)outcome, http_status, error, source, host, count(*), min(started_at), max(started_at) FROM \(Self.fetchTable)")
        rows.appendConditions(filter, and: ["outcome <> 'succeeded'"])
        rows.append(" GROUP BY " + (1...(other == nil ? 5 : 6)).map(String.init).joined(separator: ", "))
        for try await row in try await connection.query(rows.query, logger: logger) {
            let cells = row.makeRandomAccess()
            tally.add(ProblemTally.Row(
                try parts(cells), source: try cells[at + 3].decode(String.self), host: try cells[at + 4].decode(String.self),
                count: try cells[at + 5].decode(Int.self), first: try cells[at + 6].decode(Int64.self), last: try cells[at + 7].decode(Int64.self)
            ))
        }
        let times = tally.lastSeenTimes
        if !times.isEmpty {
            var examples = ServerQuery("SELECT \(key)outcome, http_status, error, started_at, id FROM \(Self.fetchTable)")
            let moments = examples.bind(times)
            examples.appendConditions(filter, and: ["outcome <> 'succeeded'", "started_at = ANY(\(moments))"])
            for try await row in try await connection.query(examples.query, logger: logger) {
                let cells = row.makeRandomAccess()
                tally.offerExample(try parts(cells), startedAt: try cells[at + 3].decode(Int64.self), id: try cells[at + 4].decode(UUID.self))
            }
        }
        guard case .problemWithin(let outer) = tally.layout else { return tally.groups(within: []) }
        return tally.groups(within: try await groups(filter, by: [outer]))
    }

    /// Everything counted here, from the rows the client's conditions keep.
    private func tallied(
        _ filter: HistoryFilter, check: ClientCheck, by groupings: [StatisticsGrouping]
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup]) {
        var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
        query.appendConditions(filter)
        var tally = StatisticsTally(groupings: groupings)
        try await withCursor(query) { row in
            let fetch = try Fetch(serverRow: row)
            if check.keeps(fetch) { tally.add(fetch) }
            return true
        }
        return (tally.statistics(withLatency: filter.accepts(.succeeded)), tally.groups)
    }
}
