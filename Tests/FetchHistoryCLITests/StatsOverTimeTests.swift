import Foundation
import Testing

@Suite("stats --over charts the count and p90 latency per minute, hour, day or week")
struct StatsOverTimeTests {
    /// `stats --over … --format json`'s buckets.
    static func buckets(_ result: CLIResult) throws -> [[String: Any]] {
        let object = try StatsPicturesTests.json(result)
        let over = try #require(object["over"] as? [String: Any], "\(result)")
        return try #require(over["buckets"] as? [[String: Any]], "\(result)")
    }

    /// The nearest-rank p90 of `durations`, as `stats` defines it.
    static func p90(_ durations: [Int64]) -> Int64? {
        let sorted = durations.sorted()
        return sorted.isEmpty ? nil : sorted[(90 * sorted.count + 99) / 100 - 1]
    }

    @Test func everyHourFromTheFirstToTheLastIsABucketWithItsCountAndP90() async throws {
        // Given a random history every ten minutes over two days, with five hours left out
        let sandbox = try Sandbox()
        let gap = (Fixtures.day0 + 10 * Fixtures.hour)..<(Fixtures.day0 + 15 * Fixtures.hour)
        let records = StatsCommandTests.randomHistory(count: 300, seed: 21).map(Fixtures.asRead).filter { !gap.contains($0.startedAt) }
        try await sandbox.importRecords(records)

        // When the history is charted by hour as JSON
        let buckets = try Self.buckets(try await sandbox.run("stats", "--over", "hour", "--format", "json"))

        // Then there is a bucket for every hour from the first fetch's to the last's, and each
        // holds the count and p90 of the fetches that started in it
        let first = records.map(\.startedAt).min()! / Fixtures.hour, last = records.map(\.startedAt).max()! / Fixtures.hour
        let hours = Array(first...last)
        #expect(buckets.map { $0["key"] as? String } == hours.map { hour in
            let time = ISO.format(hour * Fixtures.hour)
            return time.prefix(10) + " " + time.dropFirst(11).prefix(5)
        })
        for (hour, bucket) in zip(hours, buckets) {
            let members = records.filter { $0.startedAt / Fixtures.hour == hour }
            let p90 = Self.p90(members.filter { $0.outcome == "succeeded" }.compactMap(\.durationMs))
            #expect(bucket["total"] as? Int == members.count, "\(bucket)")
            #expect(((bucket["latencyMs"] as? [String: Any])?["p90"] as? NSNumber)?.int64Value == p90, "\(bucket)")
        }
        #expect(buckets.count { $0["total"] as? Int == 0 } == 5)
    }

    @Test func theTextChartHasTwoBarsPerBucketAndFoldsAQuietSpan() async throws {
        // Given fetches in hour 0, none for two hours, one in hour 3, none for three hours, one in hour 7
        let sandbox = try Sandbox()
        let hour = Fixtures.hour, start = Fixtures.day0
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: start, duration: 100),
            .make("succeeded", id: Ids.fetch(2), at: start + 60_000, duration: 400),
            .make("failed", id: Ids.fetch(3), at: start + 120_000, duration: 50),
            .make("succeeded", id: Ids.fetch(4), at: start + 3 * hour, duration: 200),
            .make("succeeded", id: Ids.fetch(5), at: start + 7 * hour, duration: 800),
        ])

        // When the history is charted by hour, to a pipe and on an 80-column terminal
        let plain = try await sandbox.succeed("stats", "--over", "hour")
        let terminal = try await sandbox.run(
            ["-qec", "COLUMNS=80 '\(FetchHistoryProcess.binary.path)' stats --over hour", "/dev/null"],
            executable: URL(fileURLWithPath: "/usr/bin/script")
        )

        // Then the summary is followed by the chart in place of the histogram: the count bar a share
        // of the busiest hour's, the p90 bar a share of the slowest; two quiet hours in a row are a
        // line each, three in a row one line
        func bar(_ count: Int, _ character: String = "#") -> String { String(repeating: character, count: count) }
        let blank = bar(30, " ")
        #expect(Array(plain.lines.suffix(7)) == [
            "HOUR              FETCHES  \(blank)    P90",
            "2026-11-20 10:00        3  \(bar(30))  400ms  \(bar(15))",
            "2026-11-20 11:00        0  \(blank)      -",
            "2026-11-20 12:00        0  \(blank)      -",
            "2026-11-20 13:00        1  \(bar(10) + bar(20, " "))  200ms  \(bar(8))",
            "                  ... 3 hours without fetches",
            "2026-11-20 17:00        1  \(bar(10) + bar(20, " "))  800ms  \(bar(30))",
        ], "\(plain)")
        #expect(plain.lines.contains("latency       p50 200ms  p90 800ms  p95 800ms  p99 800ms  max 800ms"), "\(plain)")
        #expect(!plain.standardOutput.contains("latency of succeeded fetches"), "\(plain)")
        // At 80 columns each bar has 21 cells: the p90 of 400ms is half of 800ms's, 10½ blocks
        #expect(terminal.status == 0, "\(terminal)")
        let lines = terminal.standardOutput.split(separator: "\r\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(terminal)")
        #expect(lines.contains("2026-11-20 10:00        3  \(bar(21, "█"))  400ms  \(bar(10, "█"))▌"), "\(terminal)")
        #expect(lines.contains("                  … 3 hours without fetches"), "\(terminal)")
    }

    @Test func daysAndWeeksStepThroughMonthAndYearEnds() async throws {
        // Given fetches on 2026-12-30 and 2027-01-02, and on 2027-02-27 and 2027-03-01
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: ISO.ms("2026-12-30T12:00:00"), duration: 10),
            .make("succeeded", id: Ids.fetch(2), at: ISO.ms("2027-01-02T12:00:00"), duration: 20),
        ])
        let other = try Sandbox()
        try await other.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: ISO.ms("2027-02-27T12:00:00"), duration: 10),
            .make("succeeded", id: Ids.fetch(2), at: ISO.ms("2027-03-01T12:00:00"), duration: 20),
        ])

        // When they are charted by day and by week
        let days = try Self.buckets(try await sandbox.run("stats", "--over", "day", "--format", "json"))
        let february = try Self.buckets(try await other.run("stats", "--over", "day", "--format", "json"))
        let weeks = try Self.buckets(try await sandbox.run("stats", "--over", "week", "--format", "json"))

        // Then every calendar day between is there, and weeks are named by their Mondays
        #expect(days.map { $0["key"] as? String } == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"])
        #expect(days.map { $0["total"] as? Int } == [1, 0, 0, 1])
        #expect(february.map { $0["key"] as? String } == ["2027-02-27", "2027-02-28", "2027-03-01"])
        #expect(weeks.map { $0["key"] as? String } == ["2026-12-28"])
        #expect(weeks.map { $0["total"] as? Int } == [2])
    }

    @Test func csvHasARowPerBucketTheQuietOnesIncluded() async throws {
        // Given fetches on two days with one day between
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, duration: 10),
            .make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 2 * Fixtures.day, duration: 20),
        ])

        // When they are charted by day as CSV
        let result = try await sandbox.succeed("stats", "--over", "day", "--format", "csv", "--no-header")

        // Then the quiet day is a row of zeros
        #expect(result.standardOutput.split(separator: "\r\n") == [
            "2026-11-20,1,1,0,0,0,0,0,1.0,10,10,10,10,10",
            "2026-11-21,0,0,0,0,0,0,0,,,,,,",
            "2026-11-22,1,0,1,0,0,0,0,0.0,,,,,",
        ], "\(result)")
    }

    @Test(arguments: [
        (["--over", "hour", "--by", "source"], "error: --over and --by cannot be used together; run stats once for each"),
        (["--over", "minute"], "error: --over minute would draw more than 100000 minutes; narrow it with --since or --until, or chart by a longer period"),
    ])
    func whatCannotBeChartedIsRefusedInOneSentence(_ arguments: [String], _ message: String) async throws {
        // Given fetches 100 days apart: more minutes than a chart draws
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, duration: 10),
            .make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 100 * Fixtures.day, duration: 10),
        ])

        // When stats are asked to chart what they cannot
        let result = try await sandbox.run(["stats"] + arguments)

        // Then a usage error says why, and nothing is printed
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError == message + "\nsee 'fetch-history stats --help'\n", "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
    }

    @Test func aFilterThatMatchesNothingChartsNothing() async throws {
        // Given a history with no running fetch
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When the running fetches are charted
        let text = try await sandbox.succeed("stats", "--over", "day", "--outcome", "running")
        let buckets = try Self.buckets(try await sandbox.run("stats", "--over", "day", "--outcome", "running", "--format", "json"))

        // Then the summary says there were none, and there are no buckets
        #expect(text.lines.first == "fetches       0", "\(text)")
        #expect(!text.standardOutput.contains("DAY"), "\(text)")
        #expect(buckets.isEmpty)
    }
}
