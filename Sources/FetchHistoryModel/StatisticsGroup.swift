/// The fetches of one source, outcome, day or hour: a row of `stats --by`.
public struct StatisticsGroup: Hashable, Sendable {
    /// The source, the status, `2026-11-22` or `2026-11-22 14:00`.
    public var key: String
    /// Fetches per status; statuses with none are absent.
    public var counts: [FetchStatus: Int]
    /// Nearest-rank percentiles of the group's succeeded fetches; nil when
    /// it has none, or when the filter left succeeded fetches out.
    public var latency: HistoryStatistics.Latency?

    public init(key: String, counts: [FetchStatus: Int], latency: HistoryStatistics.Latency? = nil) {
        self.key = key
        self.counts = counts
        self.latency = latency
    }

    public var total: Int { counts.values.reduce(0, +) }

    /// As `HistoryStatistics.successRate`: how often the source answered.
    public var successRate: Double? { HistoryStatistics.successRate(counts) }
}
