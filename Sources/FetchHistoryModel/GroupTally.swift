/// Fetches counted per group of one or two groupings (none of them
/// `problem`), from what a store read — counts per key and status, and the
/// durations of succeeded fetches per key — and handed back as `stats --by`
/// gives them: groups in key order, a second grouping's groups inside the
/// first's. Both stores and `StatisticsTally` count through it, so a file
/// and a server group and order alike.
///
/// ```swift
/// var tally = GroupTally([.host, .source])
/// tally.count(.failed, keys: ["ci-1", "random"], times: 3)
/// tally.groups   // [ci-1 (3 failed) [random (3 failed)]]
/// ```
package struct GroupTally {
    package let groupings: [StatisticsGrouping]
    private var counts: [[String]: [FetchStatus: Int]] = [:]
    private var durations: [[String]: [Int64]] = [:]

    package init(_ groupings: [StatisticsGrouping]) {
        precondition((1...2).contains(groupings.count) && !groupings.contains(.problem), "GroupTally groups by one or two groupings, problem by ProblemTally")
        self.groupings = groupings
    }

    /// `times` fetches of `status` in the group `keys` (one key per
    /// grouping, as the store read them). An outcome's key is taken from
    /// `status`: a stored outcome cannot tell running from interrupted.
    package mutating func count(_ status: FetchStatus, keys: [String], times: Int) {
        counts[normalized(keys, status), default: [:]][status, default: 0] += times
    }

    /// A succeeded fetch's duration, for its group's percentiles.
    package mutating func add(duration: Int64, keys: [String]) {
        durations[normalized(keys, .succeeded), default: []].append(duration)
    }

    private func normalized(_ keys: [String], _ status: FetchStatus) -> [String] {
        zip(groupings, keys).map { grouping, key in grouping == .outcome ? status.rawValue : key }
    }

    /// The groups in key order, each holding the second grouping's groups
    /// (in key order too) when there are two groupings.
    package var groups: [StatisticsGroup] {
        guard groupings.count == 2 else {
            return groupings[0].sorted(Array(counts.keys.map { $0[0] })).map { key in group(key, counts: counts[[key]]!, durations: durations[[key]] ?? []) }
        }
        let pairs = Dictionary(grouping: counts.keys, by: { $0[0] })
        return groupings[0].sorted(Array(pairs.keys)).map { outer in
            let inner = groupings[1].sorted(pairs[outer]!.map { $0[1] })
            var total: [FetchStatus: Int] = [:]
            var all: [Int64] = []
            let subgroups = inner.map { key in
                let path = [outer, key]
                total.merge(counts[path]!, uniquingKeysWith: +)
                all += durations[path] ?? []
                return group(key, counts: counts[path]!, durations: durations[path] ?? [])
            }
            var whole = group(outer, counts: total, durations: all)
            whole.subgroups = subgroups
            return whole
        }
    }

    private func group(_ key: String, counts: [FetchStatus: Int], durations: [Int64]) -> StatisticsGroup {
        var durations = durations
        return StatisticsGroup(key: key, counts: counts, latency: HistoryStatistics.Latency(selectingFrom: &durations))
    }
}

extension StatisticsGrouping {
    /// `keys` in the order `stats --by` lists this grouping's groups:
    /// outcomes in `HistoryStatistics.statusOrder`, anything else by its
    /// UTF-8 bytes (SQLite's BINARY order: days and hours in time order).
    package func sorted(_ keys: [String]) -> [String] {
        guard self == .outcome else { return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        let order = HistoryStatistics.statusOrder.map(\.rawValue)
        return keys.sorted { (order.firstIndex(of: $0) ?? order.count) < (order.firstIndex(of: $1) ?? order.count) }
    }
}
