@testable import FetchHistoryInterchange
@testable import FetchHistoryReport
import FetchHistoryModel
import Foundation
import Testing

/// `HTMLReport` given fetches the command line cannot record on demand: one
/// still running in a live process beside one interrupted.
@Suite("HTMLReport")
struct HTMLReportTests {
    @Test func aFetchStillRunningEndsInAnArrowAndAnInterruptedOneJagged() {
        // Given a session with a fetch interrupted and one still running, both without an end
        let session = UUID()
        let start = Timestamp(millisecondsSince1970: 1_764_000_000_000)
        let interrupted = Fetch(id: UUID(), sessionID: session, source: "random", startedAt: start, outcome: .interrupted, host: "ci-7")
        let running = Fetch(id: UUID(), sessionID: session, source: "random", startedAt: start.advanced(by: .seconds(1)), host: "ci-7")
        var report = HTMLReport(newestStart: running.startedAt, generatedAt: start, scope: "")
        report.add(interrupted)
        report.add(running)

        // When written
        let page = report.html(nonce: "0")

        // Then the interrupted fetch's bar ends jagged, the running one's in an arrow
        func bar(_ fetch: Fetch) -> String {
            let link = "<a class=\"fetch\" href=\"#f-\(fetch.id.uuidString.lowercased())\""
            return page.components(separatedBy: link).dropFirst().first?.components(separatedBy: "</a>").first ?? ""
        }
        #expect(bar(interrupted).contains("class=\"mark jagged\"") && !bar(interrupted).contains("class=\"mark going\""), "\(bar(interrupted))")
        #expect(bar(running).contains("class=\"mark going\"") && !bar(running).contains("class=\"mark jagged\""), "\(bar(running))")
        #expect(page.contains("› still running"), "the legend says what the arrow means")
    }

    @Test func timesAreWrittenWholeWhateverTheirYear() {
        let day: Int64 = 86_400_000
        #expect(ReportFormat.time(Timestamp(millisecondsSince1970: 1_764_000_000_250)) == "2025-11-24 16:00:00.250")
        #expect(ReportFormat.time(Timestamp(millisecondsSince1970: Timestamp.daysSince1970(year: 10_000, month: 1, day: 1) * day + 61_000)) == "10000-01-01 00:01:01.000")
        #expect(ReportFormat.time(Timestamp(millisecondsSince1970: Timestamp.daysSince1970(year: 0, month: 1, day: 1) * day - 3_600_000)) == "-1-12-31 23:00:00.000")
    }

    @Test func aDurationJustShortOfAMinuteRoundsToOne() {
        #expect(ReportFormat.duration(59_994) == "59.99 s")
        #expect(ReportFormat.duration(59_995) == "1 min 0 s")
        #expect(ReportFormat.duration(61_000) == "1 min 1 s")
    }

    @Test func aBarsDetailsGiveTheHTTPStatusAndBytes() {
        let start = Timestamp(millisecondsSince1970: 1_764_000_000_000)
        func fetch(_ outcome: FetchOutcome, _ response: SourceResponse) -> Fetch {
            Fetch(
                id: UUID(), sessionID: UUID(), source: "http://127.0.0.1:8080/n", startedAt: start, endedAt: start.advanced(by: .milliseconds(5)),
                durationMilliseconds: 5, outcome: outcome, response: response
            )
        }
        #expect(ReportFormat.details(of: fetch(.failed("HTTP 503"), SourceResponse(status: 503, bytes: 1))).hasSuffix("\nHTTP 503 · 1 byte"))
        #expect(ReportFormat.details(of: fetch(.succeeded(7), SourceResponse(status: 200, bytes: 2_048))).hasSuffix("\nHTTP 200 · 2,048 bytes"))
    }

    @Test func aLaneIsCalledByItsSessionFirstAndItsHostWhereNoHeadingNamesIt() {
        func lane(session: String?, host: String) -> Timeline.Lane {
            session.map { Timeline.Lane(kind: .session, name: $0, group: host, count: 1, bars: [], columns: [:]) }
                ?? Timeline.Lane(kind: .host, name: host, group: nil, count: 1, bars: [], columns: [:])
        }
        #expect(Timeline.label(of: lane(session: "0e8a1e00", host: "ci-7"), underHeading: false) == "0e8a1e00 · ci-7")
        #expect(Timeline.label(of: lane(session: "0e8a1e00", host: "ci-7"), underHeading: true) == "session 0e8a1e00")
        #expect(Timeline.label(of: lane(session: "0e8a1e00", host: ""), underHeading: false) == "session 0e8a1e00")
        #expect(Timeline.label(of: lane(session: nil, host: "ci-7"), underHeading: false) == "ci-7")
        #expect(Timeline.label(of: lane(session: nil, host: ""), underHeading: false) == "(host not known)")
    }

    @Test func fetchesThatNeverEndedAreHalfHeightInTheLegendAsOnTheTimeline() {
        #expect(HTMLPage.badge(.succeeded).contains("y=\"1\" width=\"16\" height=\"8\""))
        for status in [FetchStatus.interrupted, .running] {
            #expect(HTMLPage.badge(status).contains("y=\"3\" width=\"16\" height=\"4\""), "\(status)")
        }
    }
}
