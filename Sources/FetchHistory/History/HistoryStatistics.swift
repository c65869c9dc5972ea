/// Counts and latencies over the fetches a filter matches.
public struct HistoryStatistics: Hashable, Sendable {
    public var total: Int
    /// Fetches per status; statuses with none are absent.
    public var counts: [FetchStatus: Int]
    /// Durations of succeeded fetches; nil when none succeeded.
    public var latency: Latency?

    public init(total: Int, counts: [FetchStatus: Int], latency: Latency?) {
        self.total = total
        self.counts = counts
        self.latency = latency
    }

    /// Succeeded ÷ total, or nil for an empty history.
    public var successRate: Double? {
        total == 0 ? nil : Double(counts[.succeeded, default: 0]) / Double(total)
    }

    /// Nearest-rank percentiles of succeeded fetches' durations, in ms.
    public struct Latency: Hashable, Sendable {
        public var p50: Int64
        public var p90: Int64
        public var p99: Int64
        public var max: Int64

        public init(p50: Int64, p90: Int64, p99: Int64, max: Int64) {
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
        }
    }
}
