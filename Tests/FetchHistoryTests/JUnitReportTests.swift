import FetchHistory
import Foundation
import Testing

/// `JUnitReport` as a library user calls it: what the CLI cannot reach
/// (a fetch still running) and the session's host on its suite.
@Suite("JUnitReport")
struct JUnitReportTests {
    @Test func aFetchStillRunningIsSkippedAndASessionsSuiteNamesItsHost() {
        // Given a session on host ci-7 with a fetch that ended and one still running
        let session = UUID()
        let start = Timestamp(millisecondsSince1970: 1_764_000_000_000)
        var report = JUnitReport(suites: .session)
        report.add(Fetch(
            id: UUID(), sessionID: session, source: "random", startedAt: start, endedAt: start.advanced(by: .milliseconds(250)),
            durationMilliseconds: 250, outcome: .succeeded(7), host: "ci-7"
        ))
        report.add(Fetch(id: UUID(), sessionID: session, source: "random", startedAt: start.advanced(by: .seconds(1)), host: "ci-7"))

        // When written
        let xml = report.xml()

        // Then the running fetch is skipped as still running, with no time, and the suite names its host
        #expect(xml.contains("<skipped message=\"still running\"/>"), "\(xml)")
        #expect(xml.contains(" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0.250\""), "\(xml)")
        #expect(xml.contains("hostname=\"ci-7\""), "\(xml)")
        #expect(xml.components(separatedBy: " time=\"").count - 1 == 3, "two suites' counts and the ended fetch: \(xml)")
    }

    @Test func durationsThatAddUpPastInt64StayAtItsLargest() {
        // Given two fetches an import allowed, each recorded as lasting 5·10¹⁸ ms
        let session = UUID()
        let start = Timestamp(millisecondsSince1970: 1_764_000_000_000)
        var report = JUnitReport(suites: .session)
        for second in 0..<2 {
            report.add(Fetch(
                id: UUID(), sessionID: session, source: "random", startedAt: start.advanced(by: .seconds(second)), endedAt: start.advanced(by: .seconds(second + 1)),
                durationMilliseconds: 5_000_000_000_000_000_000, outcome: .succeeded(7)
            ))
        }

        // When written: no trap, and the suite's time is the largest there is
        let xml = report.xml()
        #expect(xml.contains(" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"9223372036854775.807\""), "\(xml)")
    }
}
