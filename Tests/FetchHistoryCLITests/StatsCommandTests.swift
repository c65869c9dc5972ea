import FetchHistoryTesting
import Foundation
import Testing

@Suite("stats counts outcomes and ranks latencies")
struct StatsCommandTests {
    /// What the test expects stats to say, computed here from the records.
    struct Expected: Equatable, CustomStringConvertible {
        var total: Int
        var counts: [String: Int]
        /// Succeeded, failed and timed out: the fetches the source decided, the rate's denominator.
        var decided: Int
        var successRate: Double?
        var latency: [String: Int64]?

        static let statuses = ["succeeded", "failed", "cancelled", "timed-out", "interrupted", "running"]

        /// Nearest rank: the smallest value with at least p % of the values at or below it.
        init(_ records: [ExportRecord]) {
            let read = records.map(Fixtures.asRead)
            total = read.count
            counts = Dictionary(uniqueKeysWithValues: Self.statuses.map { status in (status, read.count { $0.outcome == status }) })
            // How often the source answered: cancelled, interrupted and running fetches do not count.
            decided = counts["succeeded"]! + counts["failed"]! + counts["timed-out"]!
            successRate = decided == 0 ? nil : Double(counts["succeeded"]!) / Double(decided)
            let durations = read.filter { $0.outcome == "succeeded" }.compactMap(\.durationMs).sorted()
            if durations.isEmpty {
                latency = nil
            } else {
                func percentile(_ p: Double) -> Int64 {
                    let rank = Int((p / 100 * Double(durations.count)).rounded(.up))
                    return durations[max(rank, 1) - 1]
                }
                latency = ["p50": percentile(50), "p90": percentile(90), "p95": percentile(95), "p99": percentile(99), "max": durations.last!]
            }
        }

        /// Reads `stats --format json`.
        init(json data: Data) throws {
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            total = try #require((object["total"] as? NSNumber)?.intValue)
            let counts = try #require(object["counts"] as? [String: NSNumber])
            self.counts = counts.mapValues(\.intValue)
            decided = try #require((object["decidedBySource"] as? NSNumber)?.intValue)
            successRate = (object["successRate"] as? NSNumber)?.doubleValue
            latency = (object["latencyMs"] as? [String: NSNumber])?.mapValues(\.int64Value)
            #expect(object["successRate"] != nil && object["latencyMs"] != nil, "every key is present, null when empty")
        }

        var description: String {
            let counts = self.counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let rate = successRate.map { String($0) } ?? "nil"
            let latency = (self.latency ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "total \(total) [\(counts)] decided \(decided) rate \(rate) latency [\(latency)]"
        }

        static func == (lhs: Expected, rhs: Expected) -> Bool {
            let rates = switch (lhs.successRate, rhs.successRate) {
            case (nil, nil): true
            case let (left?, right?): abs(left - right) < 1e-6
            default: false
            }
            return lhs.total == rhs.total && lhs.counts == rhs.counts && lhs.decided == rhs.decided && rates && lhs.latency == rhs.latency
        }
    }

    static func randomHistory(count: Int, seed: UInt64) -> [ExportRecord] {
        var generator = SplitMix64(seed: seed)
        let outcomes = ["succeeded", "succeeded", "succeeded", "failed", "cancelled", "timed-out", "interrupted", "running"]
        return (0..<count).map { index in
            ExportRecord.make(
                outcomes.randomElement(using: &generator)!, id: Ids.fetch(index + 1), session: Ids.session(index % 5),
                source: Bool.random(using: &generator) ? "random" : Fixtures.otherSource,
                at: Fixtures.day0 + Int64(index) * 600_000, duration: Int64.random(in: 0...3_000, using: &generator),
                value: Int.random(in: 1...100, using: &generator)
            )
        }
    }

    @Test(arguments: [(137, UInt64(1)), (1, UInt64(2)), (10, UInt64(3)), (250, UInt64(4))])
    func statsJSONMatchesCountsAndNearestRankPercentilesComputedFromTheRecords(count: Int, seed: UInt64) async throws {
        // Given a random history
        let sandbox = try Sandbox()
        let records = Self.randomHistory(count: count, seed: seed)
        try await sandbox.importRecords(records)

        // When stats are asked for as JSON
        let result = try await sandbox.run("stats", "--format", "json")

        // Then they equal what the test computes from the records itself
        #expect(result.status == 0, "\(result)")
        let stated = try Expected(json: result.standardOutputData)
        #expect(stated == Expected(records), "seed \(seed)")
    }

    @Test func statsFiltersBySourceAndTime() async throws {
        // Given a random history over about a day, from two sources
        let sandbox = try Sandbox()
        let records = Self.randomHistory(count: 150, seed: 5)
        try await sandbox.importRecords(records)
        let since = Fixtures.day0 + 6 * Fixtures.hour
        let until = Fixtures.day0 + 18 * Fixtures.hour

        // When stats are asked for one source within a window
        let result = try await sandbox.run(
            "stats", "--format", "json", "--source", "random", "--since", ISO.format(since), "--until", ISO.format(until)
        )

        // Then only those fetches count
        #expect(result.status == 0, "\(result)")
        let expected = Expected(records.filter { $0.source == "random" && $0.startedAt >= since && $0.startedAt < until })
        #expect(expected.total > 10)
        #expect(try Expected(json: result.standardOutputData) == expected)
    }

    @Test func statsTextShowsEachCountTheRateAndReadableLatencies() async throws {
        // Given the standard history: 3 of 10 succeeded, in 120 ms, 950 ms and 1.25 s; 2 failed, 1 timed out
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When stats are printed as text
        let result = try await sandbox.run("stats")

        // Then each figure is on its own labelled line, the rate over what the source decided (3 of 6),
        // and the latencies charted in plain text (standard output is not a terminal)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "fetches       10",
            "succeeded     3",
            "failed        2",
            "cancelled     2",
            "timed-out     1",
            "interrupted   2",
            "running       0",
            "success rate  50.0%  (3 succeeded of 6 that succeeded, failed or timed out)",
            "latency       p50 950ms  p90 1.250s  p95 1.250s  p99 1.250s  max 1.250s",
            "",
            "latency of succeeded fetches",
            "  100ms-250ms  1  33.3%  ########################################",
            "  250ms-500ms  0   0.0%",
            "  500ms-1s     1  33.3%  ########################################",
            "  1s-2.5s      1  33.3%  ########################################",
        ], "\(result)")
    }

    @Test func statsOfAnEmptySelectionHaveNoRateAndNoLatency() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When stats are asked for a source with no fetches, and for a window with no successes
        let none = try await sandbox.run("stats", "--format", "json", "--source", "nowhere")
        let noSuccess = try await sandbox.run("stats", "--format", "json", "--since", "2026-11-21", "--until", "2026-11-22")
        let noneText = try await sandbox.run("stats", "--source", "nowhere")

        // Then the rate is null for no fetches, 0 with no successes, and latency is null for both
        let empty = try Expected(json: none.standardOutputData)
        #expect(empty.total == 0 && empty.successRate == nil && empty.latency == nil, "\(none)")
        let failing = try Expected(json: noSuccess.standardOutputData)
        #expect(failing == Expected(Array(Fixtures.standard[3...6])), "\(noSuccess)")
        #expect(failing.successRate == 0 && failing.latency == nil)
        #expect(noneText.status == 0, "\(noneText)")
        #expect(noneText.lines == [
            "fetches       0",
            "succeeded     0",
            "failed        0",
            "cancelled     0",
            "timed-out     0",
            "interrupted   0",
            "running       0",
            "success rate  -  (0 succeeded of 0 that succeeded, failed or timed out)",
            "latency       - (no succeeded fetches)",
        ], "\(noneText)")
    }

    @Test func ratesAreWrittenWithSixDecimalsLikePrintf() async throws {
        // Given 1 succeeded fetch of 20 ms and 19 failed ones: a rate of 0.05
        let sandbox = try Sandbox()
        try await sandbox.importRecords(
            [.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, duration: 20, value: 3)]
                + (2...20).map { .make("failed", id: Ids.fetch($0), at: Fixtures.day0 + Int64($0) * 1000) }
        )

        // When stats are asked for as JSON and as text
        let json = try await sandbox.run("stats", "--format", "json")
        let text = try await sandbox.run("stats")

        // Then JSON has every key in its order, the rate as printf's %.6f writes it; the text says 5.0%
        #expect(json.status == 0, "\(json)")
        let buckets = [0, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000]
        let histogram = buckets.indices.map { index in
            let to = index + 1 < buckets.count ? String(buckets[index + 1]) : "null"
            return #"{"fromMs":\#(buckets[index]),"toMs":\#(to),"count":\#(index == 1 ? 1 : 0)}"#
        }
        #expect(json.lines == [
            #"{"total":20,"counts":{"succeeded":1,"failed":19,"cancelled":0,"timed-out":0,"interrupted":0,"running":0},"#
                + #""decidedBySource":20,"successRate":0.050000,"latencyMs":{"p50":20,"p90":20,"p99":20,"max":20,"p95":20},"#
                + #""histogram":[\#(histogram.joined(separator: ","))],"by":null}"#,
        ], "\(json)")
        #expect(text.lines.contains("success rate  5.0%  (1 succeeded of 20 that succeeded, failed or timed out)"), "\(text)")
    }
}

@Suite("stats --by minute, week, session and status")
struct StatsGroupingTests {
    @Test func eachNewGroupingCountsItsKeys() async throws {
        // Given fetches on Friday 20 November (two in one minute), Sunday 22 and Monday 23, in two
        // sessions, with HTTP statuses 200 and 503 and none
        let sandbox = try Sandbox()
        let minute: Int64 = 60_000
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, status: 200, bytes: 2),
            .make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 30_000, status: 503, bytes: 9),
            .make("succeeded", id: Ids.fetch(3), session: Ids.session(2), at: Fixtures.day0 + minute),
            .make("succeeded", id: Ids.fetch(4), session: Ids.session(2), at: Fixtures.day0 + 2 * Fixtures.day),
            .make("failed", id: Ids.fetch(5), session: Ids.session(2), at: Fixtures.day0 + 3 * Fixtures.day, status: 503, bytes: 9),
        ])

        // When stats counts by each
        func groups(_ grouping: String) async throws -> [String: Int] {
            let result = try await sandbox.succeed("stats", "--by", grouping, "--format", "csv", "--no-header")
            return Dictionary(uniqueKeysWithValues: try CSVAndFieldsTests.records(result.standardOutput).map { ($0[0], Int($0[1])!) })
        }

        // Then each key holds its fetches: weeks by their Monday (a Sunday in the week before a Monday)
        #expect(try await groups("minute") == ["2026-11-20 10:00": 2, "2026-11-20 10:01": 1, "2026-11-22 10:00": 1, "2026-11-23 10:00": 1])
        #expect(try await groups("week") == ["2026-11-16": 4, "2026-11-23": 1])
        #expect(try await groups("session") == [Ids.session(1): 2, Ids.session(2): 3])
        #expect(try await groups("status") == ["200": 1, "503": 2, "-": 2])
    }

    @Test func aWeekInTokyoIsTokyosWeek() async throws {
        // Given a fetch at 20:00 UTC on Sunday 22 November: already Monday 23 in Tokyo
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: ISO.ms("2026-11-22T20:00:00"))])

        // When counted by week in UTC and in Tokyo
        let utc = try await sandbox.succeed("stats", "--by", "week", "--format", "csv", "--no-header")
        let tokyo = try await sandbox.run(["stats", "--by", "week", "--format", "csv", "--no-header"], environment: sandbox.environment(.sandbox, ["TZ": "Asia/Tokyo"]))

        // Then the week is the one of the local day
        #expect(utc.standardOutput.hasPrefix("2026-11-16,1,"), "\(utc)")
        #expect(tokyo.standardOutput.hasPrefix("2026-11-23,1,"), "\(tokyo)")
    }
}

@Suite("stats --by gives each group's percentiles")
struct StatsGroupLatencyTests {
    @Test func eachGroupHasTheNearestRankPercentilesOfItsSucceededFetches() async throws {
        // Given random with durations 10, 20, …, 100 ms and the other source with 500 ms and a failure
        let sandbox = try Sandbox()
        var records = (1...10).map { ExportRecord.make("succeeded", id: Ids.fetch($0), at: Fixtures.day0 + Int64($0), duration: Int64($0) * 10) }
        records.append(.make("succeeded", id: Ids.fetch(11), source: Fixtures.otherSource, at: Fixtures.day0 + 20, duration: 500))
        records.append(.make("failed", id: Ids.fetch(12), source: Fixtures.otherSource, at: Fixtures.day0 + 21, duration: 9_000))
        try await sandbox.importRecords(records)

        // When stats breaks them down by source, as JSON and as a table
        let json = try await sandbox.succeed("stats", "--by", "source", "--format", "json")
        let table = try await sandbox.succeed("stats", "--by", "source")

        // Then each group has p50/p90/p95/p99/max of its own succeeded durations (⌈p·n/100⌉-th), the failure left out
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let groups = try #require((object["by"] as? [String: Any])?["groups"] as? [[String: Any]])
        let latencies = groups.map { $0["latencyMs"] as? [String: Int] }
        #expect(latencies == [
            ["p50": 500, "p90": 500, "p95": 500, "p99": 500, "max": 500], ["p50": 50, "p90": 90, "p95": 100, "p99": 100, "max": 100],
        ], "\(json)")
        #expect(table.lines.last { $0.hasPrefix("random") }?.hasSuffix("50ms   90ms  100ms  100ms") == true, "\(table)")
    }

    @Test func aFilterWithoutSucceededFetchesGivesNoPercentiles() async throws {
        // Given a succeeded and a failed fetch
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0), .make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 1),
        ])

        // When only failed fetches are counted per source
        let json = try await sandbox.succeed("stats", "--by", "source", "--outcome", "failed", "--format", "json")

        // Then the group has no latency
        #expect(json.standardOutput.contains(#""successRate":0.000000,"latencyMs":null}"#), "\(json)")
    }
}
