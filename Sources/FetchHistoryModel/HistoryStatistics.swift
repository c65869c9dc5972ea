/// Counts and latencies over the fetches a filter matches.
public struct HistoryStatistics: Hashable, Sendable {
    public var total: Int
    /// Fetches per status; statuses with none are absent.
    public var counts: [FetchStatus: Int]
    /// Durations of succeeded fetches; nil when none succeeded.
    public var latency: Latency?
    /// How many succeeded fetches took how long, in `LatencyBucket.bounds`'
    /// buckets, every bucket present (all 0 when none succeeded).
    public var histogram: [LatencyBucket]

    public init(total: Int, counts: [FetchStatus: Int], latency: Latency?, histogram: [LatencyBucket] = LatencyBucket.empty) {
        self.total = total
        self.counts = counts
        self.latency = latency
        self.histogram = histogram
    }

    /// Every status, in the order `stats` and `sessions` show them.
    public static let statusOrder: [FetchStatus] = [.succeeded, .failed, .cancelled, .timedOut, .interrupted, .running]

    /// The statuses the source decided: it answered (`succeeded`), it
    /// failed, or it let the timeout pass (`timed-out`). A fetch the user
    /// cancelled or a newer tap superseded, one interrupted by its process's
    /// death, or one still running says nothing about the source.
    public static let decidedBySource: [FetchStatus] = [.succeeded, .failed, .timedOut]

    /// Fetches the source decided: succeeded, failed and timed-out.
    public var decidedCount: Int { Self.decidedCount(counts) }

    /// How often the source answered: succeeded ÷ (succeeded + failed +
    /// timed-out); nil when it decided none. Cancelled, interrupted and
    /// running fetches count neither for nor against it.
    public var successRate: Double? { Self.successRate(counts) }

    static func decidedCount(_ counts: [FetchStatus: Int]) -> Int {
        decidedBySource.reduce(0) { $0 + counts[$1, default: 0] }
    }

    static func successRate(_ counts: [FetchStatus: Int]) -> Double? {
        let decided = decidedCount(counts)
        return decided == 0 ? nil : Double(counts[.succeeded, default: 0]) / Double(decided)
    }

    /// The statistics of fetches counted per status in `counts`, whose
    /// succeeded ones took `durations` (ms, in any order; reordered): what
    /// a store answers, counted from the fetches themselves.
    package init(counts: [FetchStatus: Int], succeededDurations durations: inout [Int64]) {
        self.init(total: counts.values.reduce(0, +), counts: counts, latency: Latency(selectingFrom: &durations))
        for duration in durations {
            histogram[LatencyBucket.bounds.lastIndex { $0 <= duration } ?? 0].count += 1
        }
    }

    /// Nearest-rank percentiles of succeeded fetches' durations, in ms.
    public struct Latency: Hashable, Sendable {
        public var p50: Int64
        public var p90: Int64
        public var p95: Int64
        public var p99: Int64
        public var max: Int64

        public init(p50: Int64, p90: Int64, p95: Int64, p99: Int64, max: Int64) {
            self.p50 = p50
            self.p90 = p90
            self.p95 = p95
            self.p99 = p99
            self.max = max
        }

        /// The percentiles every latency has, in the order `init(ranked:max:)` takes them.
        package static let percents = [50, 90, 95, 99]

        /// The nearest rank of `percent` among `count` durations: the
        /// ⌈p·n/100⌉-th, counted from 1.
        package static func rank(_ percent: Int, of count: Int) -> Int {
            (percent * count + 99) / 100
        }

        /// The durations at the ranks of `percents`, in that order, and the largest.
        package init(ranked: [Int64], max: Int64) {
            self.init(p50: ranked[0], p90: ranked[1], p95: ranked[2], p99: ranked[3], max: max)
        }

        /// The nearest-rank percentiles (the ⌈p·n/100⌉-th) of `durations`,
        /// in ascending order; nil when there are none.
        public init?(ascending durations: [Int64]) {
            guard let last = durations.last else { return nil }
            self.init(ranked: Self.percents.map { durations[Self.rank($0, of: durations.count) - 1] }, max: last)
        }

        /// The same percentiles of `durations` in any order, which it
        /// reorders: each rank is selected rather than everything sorted
        /// (sorting a source's million durations was most of a report's
        /// time past reading them).
        package init?(selectingFrom durations: inout [Int64]) {
            guard !durations.isEmpty else { return nil }
            var ranked: [Int64] = []
            var from = 0
            for percent in Self.percents {
                let place = Self.rank(percent, of: durations.count) - 1
                durations.select(place, from: from)
                ranked.append(durations[place])
                // Everything before `place` is no larger: the next rank is at or after it.
                from = place
            }
            self.init(ranked: ranked, max: durations[from...].max()!)
        }
    }
}

fileprivate extension [Int64] {
    /// Reorders `self[from...]` so that `self[place]` holds what sorting it
    /// would put there, no larger value after it and no smaller one before
    /// (down to `from`): a quickselect, its pivot the median of three and
    /// its partition three-way, so runs of equal durations cost nothing.
    mutating func select(_ place: Int, from: Int) {
        var low = from, high = count - 1
        while low < high {
            let pivot = Swift.max(
                Swift.min(self[low], self[high]), Swift.min(Swift.max(self[low], self[high]), self[(low + high) / 2])
            )
            var less = low, index = low, more = high
            while index <= more {
                if self[index] < pivot {
                    swapAt(less, index)
                    less += 1
                    index += 1
                } else if self[index] > pivot {
                    swapAt(index, more)
                    more -= 1
                } else {
                    index += 1
                }
            }
            if place < less {
                high = less - 1
            } else if place > more {
                low = more + 1
            } else {
                return
            }
        }
    }
}
