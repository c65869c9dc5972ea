@testable import FetchHistoryModel
import Testing

/// Percentiles selected in place are the ones read off the sorted durations
/// (nearest rank), whatever the order and however many repeat.
@Suite struct LatencySelectionTests {
    /// A fixed sequence of pseudo-random numbers: the same durations every run.
    struct Durations: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 10, 99, 100, 101, 1_000, 4_097])
    func selectedPercentilesAreTheSortedOnes(_ count: Int) throws {
        var random = Durations(state: UInt64(count))
        // Spread out, mostly equal, all equal, ascending and descending: what durations look like
        let orders: [[Int64]] = [
            (0..<count).map { _ in Int64.random(in: 0...100_000, using: &random) },
            (0..<count).map { _ in Int64.random(in: 0...3, using: &random) },
            Array(repeating: 7, count: count),
            (0..<count).map { Int64($0) },
            (0..<count).map { Int64(count - $0) },
        ]
        for durations in orders {
            var reordered = durations
            let selected = try #require(HistoryStatistics.Latency(selectingFrom: &reordered))
            #expect(selected == HistoryStatistics.Latency(ascending: durations.sorted()), "\(count): \(durations.prefix(20))")
            #expect(reordered.sorted() == durations.sorted(), "no duration is lost or doubled")
        }
    }

    @Test func noDurationsHaveNoPercentiles() {
        var none: [Int64] = []
        #expect(HistoryStatistics.Latency(selectingFrom: &none) == nil)
    }
}
