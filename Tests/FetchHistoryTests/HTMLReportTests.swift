@testable import FetchHistoryInterchange
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
        let statistics = HistoryStatistics(total: 2, counts: [.interrupted: 1, .running: 1], latency: nil)
        var report = HTMLReport(statistics: statistics, newestStart: running.startedAt, generatedAt: start, scope: "")
        report.add(interrupted)
        report.add(running)

        // When written
        let page = report.html(nonce: "0")

        // Then both are short bars; the interrupted one's end is jagged, the running one's an arrow
        #expect(page.components(separatedBy: "class=\"mark jagged\"").count - 1 == 1)
        #expect(page.components(separatedBy: "class=\"mark going\"").count - 1 == 1)
        #expect(page.contains("› still running"), "the legend says what the arrow means")
    }
}
