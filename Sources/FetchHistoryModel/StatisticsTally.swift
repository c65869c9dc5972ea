/// Statistics counted one fetch at a time, as a store counts them from its
/// rows: statuses, nearest-rank percentiles and the histogram of succeeded
/// durations, and the groups of up to two groupings (problems among them)
/// through `GroupTally` and `ProblemTally`. What a history counts when it
/// must read the fetches themselves (a team history with `--grep`).
///
/// ```swift
/// var tally = StatisticsTally(groupings: [.source])
/// for fetch in fetches { tally.add(fetch) }
/// let (overall, groups) = (tally.statistics(withLatency: true), tally.groups)
/// ```
package struct StatisticsTally {
    package let groupings: [StatisticsGrouping]
    private var counts: [FetchStatus: Int] = [:]
    private var durations: [Int64] = []
    /// The groupings other than `problem`'s, or the one whose groups hold problems.
    private var plain: GroupTally?
    private var problems: ProblemTally?

    package init(groupings: [StatisticsGrouping]) {
        self.groupings = groupings
        guard !groupings.isEmpty else { return }
        if groupings.contains(.problem) {
            let problems = ProblemTally(groupings: groupings)
            if case .problemWithin(let other) = problems.layout { plain = GroupTally([other]) }
            self.problems = problems
        } else {
            plain = GroupTally(groupings)
        }
    }

    package mutating func add(_ fetch: Fetch) {
        counts[fetch.status, default: 0] += 1
        let duration = fetch.status == .succeeded ? fetch.durationMilliseconds : nil
        if let duration { durations.append(duration) }
        if var plain {
            let keys = plain.groupings.map { Self.key(of: fetch, by: $0) }
            plain.count(fetch.status, keys: keys, times: 1)
            if let duration { plain.add(duration: duration, keys: keys) }
            self.plain = plain
        }
        if var problems {
            let parts = ProblemTally.Parts(
                otherKey: problems.other.map { Self.key(of: fetch, by: $0) }, status: fetch.status,
                httpStatus: fetch.response?.status, error: fetch.errorMessage
            )
            let started = fetch.startedAt.millisecondsSince1970
            problems.add(ProblemTally.Row(parts, source: fetch.source, host: fetch.host, count: 1, first: started, last: started))
            problems.offerExample(parts, startedAt: started, id: fetch.id)
            self.problems = problems
        }
    }

    /// The key `fetch` has in `grouping` (not `problem`, which `ProblemTally` keys).
    package static func key(of fetch: Fetch, by grouping: StatisticsGrouping) -> String {
        switch grouping {
        case .source: fetch.source
        case .host: fetch.host
        case .outcome: fetch.status.rawValue
        case .day, .hour, .minute, .week: localKey(fetch.startedAt, grouping)
        case .session: fetch.sessionID.lowercased
        case .status: fetch.response.map { String($0.status) } ?? "-"
        case .problem: Problem(of: fetch)?.key ?? ""
        }
    }

    /// `2026-11-22`, `2026-11-22 14:00`, `2026-11-22 14:05` or the week's
    /// Monday, in the user's time zone.
    package static func localKey(_ time: Timestamp, _ grouping: StatisticsGrouping) -> String {
        let local = time.localDescription()
        return switch grouping {
        case .hour: local.prefix(13) + ":00"
        case .minute: String(local.prefix(16))
        case .week: StatisticsGrouping.weekKey(ofDay: local.prefix(10))
        default: String(local.prefix(10))
        }
    }

    /// The totals; latencies only `withLatency` (when succeeded fetches were asked for).
    package func statistics(withLatency: Bool) -> HistoryStatistics {
        guard withLatency else { return HistoryStatistics(total: counts.values.reduce(0, +), counts: counts, latency: nil) }
        var durations = durations
        return HistoryStatistics(counts: counts, succeededDurations: &durations)
    }

    /// The groups, as the stores give them.
    package var groups: [StatisticsGroup] {
        if let problems { return problems.groups(within: plain?.groups ?? []) }
        return plain?.groups ?? []
    }
}
