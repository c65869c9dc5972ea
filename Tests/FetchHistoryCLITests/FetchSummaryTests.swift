@testable import FetchHistoryCLI
import FetchHistory
import Foundation
import LoopbackServers
import Testing

/// `fetch --count N` ends with one line on standard error: the run's
/// fetches per outcome, the p50 and p95 of those that succeeded, and the
/// most frequent problem.
@Suite("fetch --count N ends with one summary line on standard error")
struct FetchSummaryTests {
    @Test func theLineCountsEachOutcomeGivesP50AndP95AndNamesTheTopProblem() async throws {
        // Given a server answering a number, 503 twice, 500 once, then a number again
        let server = try HTTPAnswerValueTests.server(answering: [
            .answer(status: 200, body: Data("42".utf8)),
            .answer(status: 503, body: Data("busy".utf8)),
            .answer(status: 500, body: Data("oops".utf8)),
            .answer(status: 503, body: Data("busy".utf8)),
            .answer(status: 200, body: Data("7".utf8)),
        ])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When five fetches run against it into a pipe
        let result = try await sandbox.run("fetch", "--source", server.url("/n"), "--count", "5", "--interval", "0")

        // Then after the five rows, standard error holds one line: the counts, the percentiles of
        // the two successes (nearest rank: the shorter, then the longer), and HTTP 503 with its 2
        #expect(result.status == 1, "\(result)")
        #expect(result.lines.count == 5, "\(result)")
        let durations = try await sandbox.exportedRecords().filter { $0.outcome == "succeeded" }.compactMap(\.durationMs).sorted()
        try #require(durations.count == 2)
        #expect(result.standardError == """
            5 fetches: 2 succeeded, 3 failed; p50 \(Self.shown(durations[0])), p95 \(Self.shown(durations[1])); \
            top problem: HTTP 503 (2)

            """, "\(result)")
    }

    @Test func aRunWithNoSuccessHasNoPercentilesAndOneFetchHasNoLine() async throws {
        // Given an empty history
        let sandbox = try Sandbox()

        // When two fetches time out, and then one fetch succeeds on its own
        let timedOut = try await sandbox.run("fetch", "--count", "2", "--interval", "0", "--latency", "30s", "--timeout", "5ms")
        let single = try await sandbox.run("fetch", "--latency", "0")

        // Then the run of two says so with no percentiles; the single fetch prints no summary
        #expect(timedOut.status == 1, "\(timedOut)")
        #expect(timedOut.standardError == "2 fetches: 2 timed-out; p50 -, p95 -; top problem: timed out (2)\n", "\(timedOut)")
        #expect(single.status == 0 && single.standardError.isEmpty, "\(single)")
    }

    @Test func aSingleFetchCheckedAgainstAThresholdPrintsTheCheckAlone() async throws {
        // Given an empty history
        let sandbox = try Sandbox()

        // When one fetch runs with a threshold, which reads the run's statistics as a summary would
        let result = try await sandbox.run("fetch", "--latency", "0", "--threshold", "count>=1")

        // Then standard error holds the threshold's line and no summary line above it
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1, "\(result)")
        #expect(result.standardError == "ok count 1 >= 1\n", "\(result)")
    }

    @Test func theLineGivesTheP50AndP95NotTheirNeighbours() throws {
        // Given a run of twenty succeeded fetches of twenty different durations, so that
        // the p50, p90, p95 and p99 (nearest rank: the 10th, 18th, 19th and 20th) all differ
        let durations: [Int64] = (1...20).map { Int64($0) * 100 }
        let latency = try #require(HistoryStatistics.Latency(ascending: durations))
        try #require(Set([latency.p50, latency.p90, latency.p95, latency.p99]).count == 4)
        let statistics = HistoryStatistics(total: 20, counts: [.succeeded: 20], latency: latency)

        // When its summary line is written
        let line = RunSummary(statistics: statistics, topProblem: nil).line

        // Then it gives the 10th duration as the p50 and the 19th as the p95
        #expect(line == "20 fetches: 20 succeeded; p50 \(Self.shown(durations[9])), p95 \(Self.shown(durations[18]))", "\(line)")
    }

    /// A duration as `stats` prints it: `250ms`, `1.002s`.
    static func shown(_ milliseconds: Int64) -> String {
        milliseconds < 1000 ? "\(milliseconds)ms" : "\(milliseconds / 1000).\(String(format: "%03d", milliseconds % 1000))s"
    }
}
