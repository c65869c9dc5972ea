/// One bar of the latency histogram: the succeeded fetches whose duration
/// was at least `fromMilliseconds` and below `toMilliseconds`.
public struct LatencyBucket: Hashable, Sendable {
    public var fromMilliseconds: Int64
    /// nil for the last bucket, which has no upper bound.
    public var toMilliseconds: Int64?
    public var count: Int

    public init(fromMilliseconds: Int64, toMilliseconds: Int64?, count: Int) {
        self.fromMilliseconds = fromMilliseconds
        self.toMilliseconds = toMilliseconds
        self.count = count
    }

    /// The buckets' lower bounds, in ms: a 1–2.5–5 series, so each bar
    /// covers about the same ratio of durations, from a local source's few
    /// milliseconds to a server's timeouts.
    public static let bounds: [Int64] = [0, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000]

    /// Empty buckets, one per bound.
    public static var empty: [LatencyBucket] {
        bounds.indices.map { index in
            LatencyBucket(
                fromMilliseconds: bounds[index], toMilliseconds: index + 1 < bounds.count ? bounds[index + 1] : nil, count: 0
            )
        }
    }
}
