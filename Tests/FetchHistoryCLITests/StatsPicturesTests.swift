import Foundation
import Testing

@Suite("stats charts latencies and breaks fetches down by source, outcome, day and hour")
struct StatsPicturesTests {
    static let statuses = ["succeeded", "failed", "cancelled", "timed-out", "interrupted", "running"]

    /// Reads `stats --format json`.
    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any], "\(result)")
    }

    /// The rate as this test defines it: how often the source answered.
    static func rate(_ records: [ExportRecord]) -> Double? {
        let decided = records.filter { ["succeeded", "failed", "timed-out"].contains($0.outcome) }
        return decided.isEmpty ? nil : Double(decided.count { $0.outcome == "succeeded" }) / Double(decided.count)
    }

    @Test func theJSONHistogramCountsEverySucceededDurationInItsBucket() async throws {
        // Given a random history
        let sandbox = try Sandbox()
        let records = StatsCommandTests.randomHistory(count: 300, seed: 11)
        try await sandbox.importRecords(records)

        // When stats are asked for as JSON
        let object = try Self.json(try await sandbox.run("stats", "--format", "json"))

        // Then every bucket is there, and each counts the succeeded durations within its bounds
        let bounds: [Int64] = [0, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000]
        let histogram = try #require(object["histogram"] as? [[String: Any]])
        #expect(histogram.map { ($0["fromMs"] as? NSNumber)?.int64Value } == bounds)
        #expect(histogram.map { ($0["toMs"] as? NSNumber)?.int64Value } == bounds.dropFirst().map { $0 } + [nil])
        let durations = records.filter { $0.outcome == "succeeded" }.compactMap(\.durationMs)
        let expected = bounds.indices.map { index in
            durations.count { $0 >= bounds[index] && (index + 1 == bounds.count || $0 < bounds[index + 1]) }
        }
        #expect(histogram.map { ($0["count"] as? Int) ?? -1 } == expected)
        #expect(expected.reduce(0, +) == durations.count && durations.count > 50)
        #expect(object["by"] is NSNull)
    }

    @Test(arguments: ["source", "host", "outcome", "day", "hour"])
    func theJSONBreakdownMatchesCountsComputedFromTheRecords(_ grouping: String) async throws {
        // Given a random history over two days, two sources and three hosts (read in UTC)
        let sandbox = try Sandbox()
        let hosts = ["ci-1", "ci-2", "probe-3"]
        let records = StatsCommandTests.randomHistory(count: 300, seed: 12).map(Fixtures.asRead).enumerated().map { index, record in
            var record = record
            record.host = hosts[index * 7 % hosts.count]
            return record
        }
        try await sandbox.importRecords(records)

        // When stats are broken down
        let object = try Self.json(try await sandbox.run("stats", "--by", grouping, "--format", "json"))

        // Then each group's counts and rate are those of its records, groups in order
        func key(_ record: ExportRecord) -> String {
            let time = ISO.format(record.startedAt)
            return switch grouping {
            case "source": record.source
            case "host": record.host ?? ""
            case "outcome": record.outcome
            case "day": String(time.prefix(10))
            default: time.prefix(10) + " " + time.dropFirst(11).prefix(2) + ":00"
            }
        }
        let keys = Set(records.map(key))
        let ordered = grouping == "outcome" ? Self.statuses.filter(keys.contains) : keys.sorted()
        let by = try #require(object["by"] as? [String: Any])
        #expect(by["grouping"] as? String == grouping)
        let groups = try #require(by["groups"] as? [[String: Any]])
        #expect(groups.map { $0["key"] as? String } == ordered)
        for group in groups {
            let members = records.filter { key($0) == group["key"] as? String }
            let counts = Dictionary(uniqueKeysWithValues: Self.statuses.map { status in (status, members.count { $0.outcome == status }) })
            #expect(group["total"] as? Int == members.count)
            #expect(group["counts"] as? [String: Int] == counts, "\(group)")
            #expect((group["successRate"] as? NSNumber)?.doubleValue.rounded(toPlaces: 6) == Self.rate(members)?.rounded(toPlaces: 6), "\(group)")
        }
        #expect(groups.count > 1)
    }

    @Test(arguments: [
        ("day", ["2026-11-20", "2026-11-21"]),
        ("hour", ["2026-11-20 23:00", "2026-11-21 01:00"]),
    ])
    func daysAndHoursAreTheUsersLocalOnes(_ grouping: String, _ keys: [String]) async throws {
        // Given fetches at 14:00 and 16:00 UTC: 23:00 that day and 01:00 the next in Tokyo (UTC+9)
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: ISO.ms("2026-11-20T14:00:00")),
            .make("failed", id: Ids.fetch(2), at: ISO.ms("2026-11-20T16:00:00")),
        ])

        // When stats are broken down by day or hour in Tokyo
        let result = try await sandbox.run(
            ["stats", "--by", grouping, "--format", "json"], environment: sandbox.environment(.sandbox, ["TZ": "Asia/Tokyo"])
        )

        // Then each fetch is in its Tokyo day or hour
        let by = try #require(try Self.json(result)["by"] as? [String: Any], "\(result)")
        let groups = try #require(by["groups"] as? [[String: Any]], "\(result)")
        #expect(groups.map { $0["key"] as? String } == keys, "\(result)")
        #expect(groups.map { $0["total"] as? Int } == [1, 1], "\(result)")
    }

    @Test func theTextBreakdownIsATable() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When stats are broken down by day
        let result = try await sandbox.run("stats", "--by", "day")

        // Then it is a table with a row per day, each day with the percentiles of its succeeded
        // fetches (none: -), and nothing above it
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "DAY         FETCHES  SUCCEEDED  FAILED  CANCELLED  TIMED-OUT  INTERRUPTED  RUNNING  SUCCESS RATE    P50     P90     P95     P99",
            "2026-11-20        3          1       1          1          0            0        0         50.0%  120ms   120ms   120ms   120ms",
            "2026-11-21        4          0       0          1          1            2        0          0.0%      -       -       -       -",
            "2026-11-22        3          2       1          0          0            0        0         66.7%  950ms  1.250s  1.250s  1.250s",
        ], "\(result)")
    }

    @Test func onATerminalTheChartHasBars() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When stats print to a terminal (script(1) gives the command one)
        let result = try await sandbox.run(
            ["-qec", "'\(FetchHistoryProcess.binary.path)' stats", "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script")
        )

        // Then the chart is drawn with block characters, eighths at the bars' ends
        #expect(result.status == 0, "\(result)")
        let chart = result.standardOutput.split(whereSeparator: \.isNewline).map(String.init).suffix(4)
        #expect(Array(chart) == [
            "  100ms–250ms  1  33.3%  ████████████████████████████████████████",
            "  250ms–500ms  0   0.0%",
            "  500ms–1s     1  33.3%  ████████████████████████████████████████",
            "  1s–2.5s      1  33.3%  ████████████████████████████████████████",
        ], "\(result)")
    }

    @Test func aBucketOfOneFetchBesideAThousandStillHasABar() async throws {
        // Given a thousand fetches of 120 ms and one of 600 ms
        let sandbox = try Sandbox()
        var records = (0..<1_000).map { index in
            ExportRecord.make("succeeded", id: Ids.fetch(index + 1), at: Fixtures.day0 + Int64(index) * 1000, duration: 120)
        }
        records.append(.make("succeeded", id: Ids.fetch(2_000), at: Fixtures.day0 - 1000, duration: 600))
        try await sandbox.importRecords(records)

        // When the chart is printed plain (to a pipe) and in blocks (to a terminal)
        let plain = try await sandbox.succeed("stats")
        let blocks = try await sandbox.run(
            ["-qec", "'\(FetchHistoryProcess.binary.path)' stats", "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script")
        )

        // Then the lone fetch's bucket gets the shortest bar there is, not none
        let plainLine = plain.lines.first { $0.hasPrefix("  500ms-1s ") }
        #expect(plainLine?.hasSuffix("  1   0.1%  #") == true, "\(plain)")
        #expect(plain.lines.contains { $0.hasPrefix("  100ms-250ms ") && $0.hasSuffix("  " + String(repeating: "#", count: 40)) }, "\(plain)")
        let blocksLine = blocks.standardOutput.split(whereSeparator: \.isNewline).first { $0.hasPrefix("  500ms–1s ") }
        #expect(blocksLine?.hasSuffix("  1   0.1%  ▏") == true, "\(blocks)")
    }

    @Test func aBarIsItsBucketsShareOfTheLargestRoundedToTheNearestCharacterOrEighth() async throws {
        // Given two fetches of 120 ms and three of 600 ms: the smaller bar is 2/3 of 40, 26.67 characters
        let sandbox = try Sandbox()
        try await sandbox.importRecords((1...5).map { number in
            .make("succeeded", id: Ids.fetch(number), at: Fixtures.day0 + Int64(number) * 1000, duration: number <= 2 ? 120 : 600)
        })

        // When the chart is printed plain (to a pipe) and in blocks (to a terminal)
        let plain = try await sandbox.succeed("stats")
        let blocks = try await sandbox.run(
            ["-qec", "'\(FetchHistoryProcess.binary.path)' stats", "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script")
        )

        // Then the smaller bar is 27 #, or 26 blocks and five eighths (213.3 eighths rounded)
        #expect(Array(plain.lines.suffix(3)) == [
            "  100ms-250ms  2  40.0%  " + String(repeating: "#", count: 27),
            "  250ms-500ms  0   0.0%",
            "  500ms-1s     3  60.0%  " + String(repeating: "#", count: 40),
        ], "\(plain)")
        #expect(blocks.status == 0, "\(blocks)")
        let chart = blocks.standardOutput.split(whereSeparator: \.isNewline).map(String.init).suffix(3)
        #expect(Array(chart) == [
            "  100ms–250ms  2  40.0%  " + String(repeating: "█", count: 26) + "▋",
            "  250ms–500ms  0   0.0%",
            "  500ms–1s     3  60.0%  " + String(repeating: "█", count: 40),
        ], "\(blocks)")
    }

    @Test func bucketsFromThirtySecondsOnAreLabelledInMinutes() async throws {
        // Given one fetch of 45 s and one of 61 s
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, duration: 45_000),
            .make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 100_000, duration: 61_000),
        ])

        // When the chart is printed plain and in blocks
        let plain = try await sandbox.succeed("stats")
        let blocks = try await sandbox.run(
            ["-qec", "'\(FetchHistoryProcess.binary.path)' stats", "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script")
        )

        // Then the buckets are 30s to 1m and 1m or more
        let bar = String(repeating: "#", count: 40)
        #expect(Array(plain.lines.suffix(2)) == ["  30s-1m  1  50.0%  " + bar, "  >= 1m   1  50.0%  " + bar], "\(plain)")
        let blockBar = String(repeating: "█", count: 40)
        let chart = blocks.standardOutput.split(whereSeparator: \.isNewline).map(String.init).suffix(2)
        #expect(Array(chart) == ["  30s–1m  1  50.0%  " + blockBar, "  ≥ 1m    1  50.0%  " + blockBar], "\(blocks)")
    }

    @Test func anUnknownGroupingIsAUsageError() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When stats are broken down by something they cannot be
        let result = try await sandbox.run("stats", "--by", "fortnight")

        // Then it is refused as a usage error, one line naming every grouping there is
        #expect(result.status == 64 && result.standardError.hasPrefix("error: "), "\(result)")
        let groupings = ["source", "outcome", "day", "hour", "host", "minute", "week", "session", "status", "problem"]
        #expect(result.standardError.hasSuffix(
            "'fortnight' is not a grouping; use one or two of " + groupings.dropLast().map { "'\($0)'" }.joined(separator: ", ")
                + " or 'problem'\nsee 'fetch-history stats --help'\n"
        ), "\(result)")
        #expect(result.standardError.split(separator: "\n").count == 2, "\(result)")
        #expect(result.standardOutput.isEmpty)
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
