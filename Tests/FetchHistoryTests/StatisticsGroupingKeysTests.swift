import FetchHistory
import Testing

@Suite struct StatisticsGroupingKeysTests {
    @Test func hoursStepOverMidnightAndALeapDay() {
        #expect(StatisticsGrouping.hour.keys(from: "2028-02-28 23:00", through: "2028-03-01 00:00", limit: 100)?.count == 26)
        #expect(StatisticsGrouping.hour.keys(from: "2028-02-28 23:00", through: "2028-02-29 01:00", limit: 100)
            == ["2028-02-28 23:00", "2028-02-29 00:00", "2028-02-29 01:00"])
        #expect(StatisticsGrouping.minute.keys(from: "2026-12-31 23:59", through: "2027-01-01 00:01", limit: 100)
            == ["2026-12-31 23:59", "2027-01-01 00:00", "2027-01-01 00:01"])
    }

    @Test func theLimitCountsKeysExactly() {
        #expect(StatisticsGrouping.day.keys(from: "2026-11-01", through: "2026-11-10", limit: 10)?.count == 10)
        #expect(StatisticsGrouping.day.keys(from: "2026-11-01", through: "2026-11-11", limit: 10) == nil)
    }

    @Test(arguments: [
        (StatisticsGrouping.source, "2026-11-01", "2026-11-02"),
        (.day, "2026-11-02", "2026-11-01"),
        (.day, "2026-13-01", "2026-13-02"),
        (.hour, "2026-11-01 24:00", "2026-11-02 00:00"),
        (.day, "random", "random"),
    ])
    func whatIsNotASpanOfTimeHasNoKeys(_ grouping: StatisticsGrouping, _ first: String, _ last: String) {
        #expect(grouping.keys(from: first, through: last, limit: 1_000) == nil)
    }

    @Test func aWeekIsNamedByItsMonday() {
        #expect(StatisticsGrouping.weekKey(ofDay: "2026-11-22") == "2026-11-16")
        #expect(StatisticsGrouping.weekKey(ofDay: "2026-11-16") == "2026-11-16")
        #expect(StatisticsGrouping.weekKey(ofDay: "1970-01-01") == "1969-12-29")
        #expect(StatisticsGrouping.week.keys(from: "2026-12-28", through: "2027-01-11", limit: 10) == ["2026-12-28", "2027-01-04", "2027-01-11"])
    }
}
