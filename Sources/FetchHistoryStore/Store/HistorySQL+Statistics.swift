import FetchHistoryModel

// The SQL of `stats --by`.
extension HistorySQL {
    /// The key a fetch is grouped by: its source, or the local day or hour
    /// it started ("localtime" is the C library's, so `TZ` applies).
    /// (Per outcome, `Database` reads the counts per status instead: the
    /// outcome index alone answers them.)
    static func groupKey(_ grouping: StatisticsGrouping) -> String {
        switch grouping {
        case .source: "source"
        case .outcome: "outcome"
        case .day: "strftime('%Y-%m-%d', started_at / 1000, 'unixepoch', 'localtime')"
        case .hour: "strftime('%Y-%m-%d %H:00', started_at / 1000, 'unixepoch', 'localtime')"
        }
    }

    /// Fetches per key, stored outcome and liveness (the latter only for
    /// fetches not ended), keys in order.
    static func countByGroup(_ grouping: StatisticsGrouping, _ conditions: String) -> String {
        "SELECT \(groupKey(grouping)), outcome, \(isAlive), count(*) FROM fetch\(conditions) GROUP BY 1, 2, 3 ORDER BY 1"
    }
}
