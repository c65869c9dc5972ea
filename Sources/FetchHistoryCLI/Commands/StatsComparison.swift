import FetchHistory

/// `stats --compare`: the same statistics for the period of equal length
/// just before `--since`, to set beside each figure. A group is matched
/// with the group of the same key (and, within a second grouping, the same
/// pair of keys) before; one with no fetches then is new.
struct StatsComparison {
    /// The period compared: from `--since` to `--until` (or now).
    var since: Timestamp
    var until: Timestamp
    /// The period before it, as long, ending at `since`.
    var beforeSince: Timestamp
    var beforeUntil: Timestamp { since }
    /// The totals and groups of the period before.
    var before: HistoryStatistics
    private var groupsBefore: [String: StatisticsGroup]

    /// The filter for the period before `filter`'s: the same conditions, from
    /// as long before `filter.since` as `filter` spans, to `filter.since`;
    /// `filter.until` nil is `now`.
    static func periodBefore(_ filter: HistoryFilter, now: Timestamp) -> HistoryFilter? {
        guard let since = filter.since else { return nil }
        let until = filter.until ?? now
        var before = filter
        before.since = Timestamp(millisecondsSince1970: since.millisecondsSince1970 - (until.millisecondsSince1970 - since.millisecondsSince1970))
        before.until = since
        return before
    }

    init(filter: HistoryFilter, before filterBefore: HistoryFilter, now: Timestamp, statistics: HistoryStatistics, groups: [StatisticsGroup]) {
        since = filter.since ?? now
        until = filter.until ?? now
        beforeSince = filterBefore.since ?? now
        before = statistics
        var byPath: [String: StatisticsGroup] = [:]
        for group in groups {
            byPath[Self.path([group.key])] = group
            for subgroup in group.subgroups { byPath[Self.path([group.key, subgroup.key])] = subgroup }
        }
        groupsBefore = byPath
    }

    /// The group of the period before at `keys` (one key, or a pair); nil
    /// when it had no fetches then.
    func group(at keys: [String]) -> StatisticsGroup? {
        groupsBefore[Self.path(keys)]
    }

    /// The keys as one text, each after its length, so that no two paths
    /// share a text.
    private static func path(_ keys: [String]) -> String {
        keys.map { "\($0.utf8.count):\($0)" }.joined()
    }
}
