@testable import FetchHistoryInterchange
@testable import FetchHistoryReport
import FetchHistoryModel
import Testing

/// The report's time axis marks round times, as a person reads an axis, and
/// writes each as short as it can while saying what changed.
@Suite("TimeTicks")
struct TimeTicksTests {
    private func time(_ text: String) throws -> Int64 {
        try #require(Timestamp(iso8601: text)).millisecondsSince1970
    }

    private func labels(_ from: String, _ to: String, atMost count: Int) throws -> [String] {
        let times = TimeTicks.times(from: try time(from), to: try time(to), atMost: count)
        return times.indices.map { TimeTicks.label(times[$0], after: $0 == 0 ? nil : times[$0 - 1]) }
    }

    @Test func aYearIsMarkedByQuartersFromTheFirstWholeMonth() throws {
        // A year from a few seconds past New Year: months would be 11 marks, quarters are 3
        #expect(try labels("2025-01-01T00:00:14Z", "2025-12-31T22:32:00Z", atMost: 8) == ["2025-04-01", "2025-07", "2025-10"])
        // With room for 12, every month
        #expect(try labels("2024-12-15T00:00:00Z", "2025-12-15T00:00:00Z", atMost: 12) == [
            "2025-01-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06",
            "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12",
        ])
        // A stretch that starts on the first of a month is marked right there
        #expect(try labels("2025-01-01T00:00:00Z", "2025-12-31T00:00:00Z", atMost: 4) == ["2025-01-01", "2025-04", "2025-07", "2025-10"])
        // Half years across New Year: its day is written as its year
        #expect(try labels("2024-06-15T00:00:00Z", "2025-08-01T00:00:00Z", atMost: 3) == ["2024-07-01", "2025", "2025-07"])
    }

    @Test func hoursAcrossMidnightSayTheNewDay() throws {
        // One-hour steps would be 5 marks; two-hour ones fit 3, and midnight gives the date
        #expect(try labels("2025-11-24T21:50:00Z", "2025-11-25T02:10:00Z", atMost: 3) == ["2025-11-24 22:00", "11-25", "02:00"])
    }

    @Test func weeksStartOnMonday() throws {
        // November 2025: 30 days, 15 pairs of days; the Mondays are the 3rd, 10th, 17th and 24th
        #expect(try labels("2025-11-01T00:00:00Z", "2025-11-30T00:00:00Z", atMost: 5) == ["2025-11-03", "11-10", "11-17", "11-24"])
    }

    @Test func theFirstMarkOfANewYearSaysItsYear() throws {
        // Weeks across New Year: Monday the 5th of January is the first mark of 2026
        #expect(try labels("2025-12-20T00:00:00Z", "2026-01-15T00:00:00Z", atMost: 5) == ["2025-12-22", "12-29", "2026-01-05", "01-12"])
    }

    @Test func secondsAndMillisecondsAreWrittenOnlyWhenTheyAreNotZero() throws {
        #expect(try labels("2025-11-25T19:15:07.854Z", "2025-11-25T19:15:17.391Z", atMost: 4) == [
            "2025-11-25 19:15:10", "19:15:15",
        ])
        #expect(try labels("2025-11-25T19:15:07.854Z", "2025-11-25T19:15:07.990Z", atMost: 3) == [
            "2025-11-25 19:15:07.900", "19:15:07.950",
        ])
        #expect(TimeTicks.label(try time("2025-11-25T14:30:05Z"), after: try time("2025-11-25T14:30:00Z")) == "14:30:05")
        #expect(TimeTicks.label(try time("2025-11-25T14:30:00Z"), after: try time("2025-11-25T14:00:00Z")) == "14:30")
        #expect(TimeTicks.label(try time("2025-11-25T00:00:00Z"), after: nil) == "2025-11-25")
    }

    @Test func aStretchNoRoundStepFitsStillGetsAMark() throws {
        // From .006 to .008 s: 2 ms steps give two marks, more than the one there is room for, and
        // 5 ms steps none; the stretch is marked at the first 2 ms one
        #expect(try labels("2025-11-25T10:00:00.006Z", "2025-11-25T10:00:00.008Z", atMost: 1) == ["2025-11-25 10:00:00.006"])
        // No room at all is room for one
        #expect(try labels("2025-11-25T10:00:00Z", "2025-11-25T11:00:00Z", atMost: 0) == ["2025-11-25 10:00"])
    }

    @Test func timesBefore1970AreMarkedAsAfter() throws {
        #expect(try labels("1969-12-31T22:50:00Z", "1970-01-01T01:10:00Z", atMost: 3) == ["1969-12-31 23:00", "1970", "01:00"])
    }
}
