import FetchHistoryTesting
import Foundation
import Testing
@testable import FetchHistory

@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_795_867_200_250, "2026-11-28T12:00:00.250Z"),
        (951_782_400_001, "2000-02-29T00:00:00.001Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func formatsISO8601WithMilliseconds(_ milliseconds: Int64, _ text: String) {
        #expect(Timestamp(millisecondsSince1970: milliseconds).iso8601 == text)
    }

    @Test func dayCountsRoundTripThroughTheCalendar() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (year, month, day) = Timestamp.civilDate(daysSince1970: days)
            #expect(Timestamp.daysSince1970(year: year, month: month, day: day) == days)
        }
    }

    @Test func agreesWithFoundationOnWholeSeconds() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<1_000 {
            let seconds = Int64.random(in: 0...4_102_444_800, using: &generator)
            let expected = Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
            let ours = Timestamp(millisecondsSince1970: seconds * 1000).iso8601
            #expect(ours == expected.replacingOccurrences(of: "Z", with: ".000Z"))
        }
    }
}
