import Foundation
import Testing

/// `stats --by problem`: what went wrong, most frequent first, checked
/// against the labels of a generated history (`ProblemHistory`).
@Suite("stats --by problem groups failures by what went wrong")
struct ProblemStatsTests {
    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any], "\(result)")
    }

    /// `by.groups` of a `stats --format json`.
    static func groups(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require((object["by"] as? [String: Any])?["groups"] as? [[String: Any]])
    }

    @Test func problemsAreCountedMostFrequentFirstWithTheirSpreadAndAnExample() async throws {
        // Given a history of several hosts, sources and problems over four days
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats counts it by problem
        let result = try await sandbox.succeed("stats", "--by", "problem", "--format", "json")

        // Then each labelled problem is one group, most frequent first (ties by key): its fetches,
        // its share of those that did not succeed, its sources and hosts, first and last start,
        // and its newest fetch as the example; an error's numbers and addresses are masked
        let object = try Self.json(result)
        #expect((object["by"] as? [String: Any])?["grouping"] as? String == "problem")
        let groups = try Self.groups(object).map(ProblemHistory.Group.init(json:))
        let expected = ProblemHistory.groups(ProblemHistory.fetches)
        #expect(groups == expected, "\(result)")
        #expect(expected.map(\.key) == [
            "HTTP 503", "timed out", "user <n> not found", "HTTP 500", "connection refused by <ip>", "cancelled", "interrupted",
        ])
        // (a failure whose error says "timed out" is that problem too, from a third source)
        #expect(expected[1].total == 6 && expected[1].sources == 3)
    }

    @Test func theTableShowsEachProblemOnALineWithAnIDShowTakes() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats prints its problems as a table, and show is given the example of the first
        let table = try await sandbox.succeed("stats", "--by", "problem")
        let first = try #require(table.lines.dropFirst().first, "\(table)")
        let example = try #require(first.split(separator: " ").last.map(String.init))
        let shown = try await sandbox.succeed("show", example, "--format", "json")

        // Then the table is the problems alone (no summary above it), and the example is a fetch with that problem
        #expect(table.lines == [
            "PROBLEM                     FETCHES  SHARE  SOURCES  HOSTS  FIRST SEEN           LAST SEEN            EXAMPLE",
            "HTTP 503                          7  30.4%        1      2  2026-11-20 10:56:00  2026-11-23 10:56:00  0000002e",
            "timed out                         6  26.1%        3      2  2026-11-20 11:10:00  2026-11-23 11:17:00  00000031",
            "user <n> not found                4  17.4%        1      2  2026-11-21 11:17:00  2026-11-23 11:10:00  00000030",
            "HTTP 500                          2   8.7%        1      1  2026-11-23 11:24:00  2026-11-23 11:31:00  00000033",
            "connection refused by <ip>        2   8.7%        1      1  2026-11-20 11:17:00  2026-11-22 11:31:00  00000025",
            "cancelled                         1   4.3%        1      1  2026-11-21 11:31:00  2026-11-21 11:31:00  00000018",
            "interrupted                       1   4.3%        1      1  2026-11-22 11:38:00  2026-11-22 11:38:00  00000026",
        ], "\(table)")
        #expect(shown.standardOutput.contains(#""error":"HTTP 503""#), "\(shown)")
    }

    @Test func csvHasARowPerProblemWithItsFiguresAfterTheCountsThereWere() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats writes its problems as CSV
        let result = try await sandbox.succeed("stats", "--by", "problem", "--format", "csv")

        // Then the columns there were come first, then the problem's own; a row per problem
        let rows = try CSVAndFieldsTests.records(result.standardOutput)
        #expect(rows.first == [
            "problem", "fetches", "succeeded", "failed", "cancelled", "timed-out", "interrupted", "running", "successRate",
            "p50Ms", "p90Ms", "p99Ms", "maxMs", "p95Ms", "share", "sources", "hosts", "firstSeen", "lastSeen", "example",
        ], "\(result)")
        let expected = ProblemHistory.groups(ProblemHistory.fetches)
        #expect(rows.dropFirst().map { [$0[0], $0[1], $0[16], $0[19]] } == expected.map { [$0.key, String($0.total), String($0.hosts), $0.example] })
        // the timed-out problem holds 5 timed-out fetches and a failure; its rate is 0, its latency none
        #expect(Array(rows[2][1...13]) == ["6", "0", "1", "0", "5", "0", "0", "0.0", "", "", "", "", ""], "\(result)")
    }

    @Test func twoGroupingsGiveARowPerPairAndNestedGroupsInJSON() async throws {
        // Given the generated history, with a source that never failed
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats counts problems per source, as JSON and as a table, and by --by twice
        let json = try await sandbox.succeed("stats", "--by", "source,problem", "--format", "json")
        let table = try await sandbox.succeed("stats", "--by", "source,problem")
        let repeated = try await sandbox.succeed("stats", "--by", "source", "--by", "problem")

        // Then each source is a group with its own totals, holding its problems most frequent first,
        // each its share of that source's failures; the quiet source has none
        let sources = try Self.groups(try Self.json(json))
        #expect(sources.map { $0["key"] as? String } == [ProblemHistory.health, ProblemHistory.quiet, ProblemHistory.users, "random"])
        for source in sources {
            let key = try #require(source["key"] as? String)
            let fetches = ProblemHistory.fetches.filter { $0.record.source == key }
            #expect(source["total"] as? Int == fetches.count)
            let by = try #require(source["by"] as? [String: Any])
            #expect(by["grouping"] as? String == "problem")
            let problems = try #require(by["groups"] as? [[String: Any]]).map(ProblemHistory.Group.init(json:))
            #expect(problems == ProblemHistory.groups(fetches), "\(key): \(json)")
        }
        // a row per pair: the quiet source has none
        let rows = table.lines.dropFirst()
        #expect(table.lines.first?.hasPrefix("SOURCE                      PROBLEM                     FETCHES  SHARE") == true, "\(table)")
        let pairs = Set(ProblemHistory.fetches.compactMap { fetch in fetch.problem.map { [fetch.record.source, $0] } })
        #expect(rows.count == pairs.count, "\(table)")
        #expect(rows.first?.hasPrefix("https://api.example/health  timed out                         4  50.0%") == true, "\(table)")
        #expect(!table.standardOutput.contains(ProblemHistory.quiet))
        // and --by twice is the same as the comma
        #expect(repeated.standardOutput == table.standardOutput)
    }

    @Test func aProblemsGroupsOfAnotherGroupingHaveTheirShareOfTheProblem() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats counts each problem per host
        let json = try await sandbox.succeed("stats", "--by", "problem,host", "--format", "json")

        // Then each problem holds its hosts in key order, each with its part of that problem
        let problems = try Self.groups(try Self.json(json))
        let http503 = try #require(problems.first)
        let hosts = try #require((http503["by"] as? [String: Any])?["groups"] as? [[String: Any]]).map(ProblemHistory.Group.init(json:))
        let fetches = ProblemHistory.fetches.filter { $0.problem == "HTTP 503" }
        #expect(hosts == ["ci-1", "ci-2"].map { host in
            var group = ProblemHistory.Group(key: host, fetches.filter { $0.record.host == host }, of: fetches.count)
            group.key = host
            return group
        }, "\(json)")
    }

    @Test func twoGroupingsWithoutProblemsCountEachPair() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats counts per host and source
        let json = try await sandbox.succeed("stats", "--by", "host,source", "--format", "json")
        let csv = try await sandbox.succeed("stats", "--by", "host,source", "--format", "csv", "--no-header")

        // Then every pair that has fetches is a group within its host, with its counts and percentiles
        let hosts = try Self.groups(try Self.json(json))
        #expect(hosts.map { $0["key"] as? String } == ProblemHistory.hosts)
        var pairs: [[String]: Int] = [:]
        for fetch in ProblemHistory.fetches { pairs[[fetch.record.host!, fetch.record.source], default: 0] += 1 }
        let rows = try CSVAndFieldsTests.records(csv.standardOutput)
        #expect(Dictionary(uniqueKeysWithValues: rows.map { ([$0[0], $0[1]], Int($0[2])!) }) == pairs, "\(csv)")
        #expect(rows.map { [$0[0], $0[1]] } == pairs.keys.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }, "pairs in key order: \(csv)")
        // the quiet source's succeeded durations are its pair's percentiles
        let ci2 = try #require(hosts.first { $0["key"] as? String == "ci-2" })
        let quiet = try #require(((ci2["by"] as? [String: Any])?["groups"] as? [[String: Any]])?.first { $0["key"] as? String == ProblemHistory.quiet })
        #expect(quiet["latencyMs"] as? [String: Int] == ["p50": 2_001, "p90": 2_003, "p95": 2_003, "p99": 2_003, "max": 2_003], "\(json)")
    }

    @Test(arguments: [
        (["--by", "source,host,day"], "--by takes one or two groupings, not 3 (source,host,day)"),
        (["--by", "problem", "--by", "problem"], "--by names problem twice; give two different groupings, such as source,problem"),
        (["--by", "problem,fortnight"], "'fortnight' is not a grouping; use one or two of 'source', 'outcome', 'day', 'hour', 'host', 'minute', 'week', 'session', 'status' or 'problem'"),
        (["--compare"], "--compare needs --since: it compares the period since then with the one as long just before it"),
        (["--summary"], "--summary adds the summary above the --by table; without --by it is always printed"),
        (["--by", "source", "--summary", "--format", "json"], "--summary applies to the text format only: json always holds the totals"),
        (["--problem", ""], "--problem is empty; give a problem's key as stats --by problem prints it, such as 'HTTP 503'"),
    ])
    func aGroupingOrComparisonThatCannotBeIsAUsageError(arguments: [String], message: String) async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats is asked for what it cannot give
        let result = try await sandbox.run(["stats"] + arguments)

        // Then it says why in one sentence, exit 64, and prints nothing
        #expect(result.status == 64 && result.standardError.contains(message), "\(result)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aByTablePrintsTheSummaryAboveItOnlyWhenAsked() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When stats --by source runs with and without --summary
        let table = try await sandbox.succeed("stats", "--by", "source")
        let both = try await sandbox.succeed("stats", "--by", "source", "--summary")
        let summary = try await sandbox.succeed("stats")

        // Then the table alone, or the summary, a blank line and the table
        #expect(table.lines.first?.hasPrefix("SOURCE ") == true && table.lines.count == 5, "\(table)")
        #expect(both.standardOutput == summary.standardOutput + "\n" + table.standardOutput, "\(both)")
    }

    @Test func compareSetsThePeriodBeforeBesideEachProblemAndMarksTheNewOnes() async throws {
        // Given the generated history: HTTP 500 appears on the last day only
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)
        let since = ISO.format(ProblemHistory.day(3)), until = ISO.format(ProblemHistory.day(4))

        // When the last day is compared with the day before it
        let json = try await sandbox.succeed("stats", "--by", "problem", "--since", since, "--until", until, "--compare", "--format", "json")
        let table = try await sandbox.succeed("stats", "--by", "problem", "--since", since, "--until", until, "--compare")

        // Then each problem of the last day has the day before's figures and the change; HTTP 500 is new
        let object = try Self.json(json)
        let lastDay = ProblemHistory.fetches.filter { $0.record.startedAt >= ProblemHistory.day(3) }
        let dayBefore = ProblemHistory.fetches.filter { (ProblemHistory.day(2)..<ProblemHistory.day(3)).contains($0.record.startedAt) }
        let before = Dictionary(uniqueKeysWithValues: ProblemHistory.groups(dayBefore).map { ($0.key, $0.total) })
        let groups = try Self.groups(object)
        #expect(try groups.map(ProblemHistory.Group.init(json:)) == ProblemHistory.groups(lastDay), "\(json)")
        for group in groups {
            let key = try #require(group["key"] as? String)
            let total = try #require(group["total"] as? Int)
            #expect((group["before"] as? [String: Any])?["total"] as? Int == before[key] ?? 0, "\(key)")
            #expect((group["change"] as? [String: Any])?["total"] as? Int == total - (before[key] ?? 0), "\(key)")
            #expect(group["new"] as? Bool == (before[key] == nil), "\(key)")
        }
        #expect(groups.filter { $0["new"] as? Bool == true }.map { $0["key"] as? String } == ["HTTP 500"], "\(json)")
        let compare = try #require(object["compare"] as? [String: Any])
        #expect(compare["since"] as? String == since && compare["until"] as? String == until)
        let beforeTotals = try #require(compare["before"] as? [String: Any])
        #expect(beforeTotals["since"] as? String == ISO.format(ProblemHistory.day(2)) && beforeTotals["until"] as? String == since)
        #expect(beforeTotals["total"] as? Int == dayBefore.count, "\(json)")
        // and the table says so in two columns, after the period it compared with
        #expect(table.lines.first == "compared with 2026-11-22 10:00:00 to 2026-11-23 10:00:00", "\(table)")
        #expect(table.lines.count > 2 && table.lines[1].isEmpty && table.lines[2].hasSuffix("EXAMPLE   BEFORE  CHANGE"), "\(table)")
        #expect(table.lines.first { $0.hasPrefix("HTTP 500") }?.hasSuffix("0     new") == true, "\(table)")
        #expect(table.lines.first { $0.hasPrefix("HTTP 503") }?.hasSuffix("2      -1") == true, "\(table)")
    }

    @Test func compareWithoutBySetsEachTotalBesideTheOneBefore() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When the last two days are compared with the two before
        let result = try await sandbox.succeed("stats", "--since", ISO.format(ProblemHistory.day(2)), "--until", ISO.format(ProblemHistory.day(4)), "--compare")

        // Then after the summary come the figures of both periods and the change
        let since = ProblemHistory.fetches.filter { $0.record.startedAt >= ProblemHistory.day(2) }.count
        let before = ProblemHistory.fetches.filter { $0.record.startedAt < ProblemHistory.day(2) }.count
        #expect(result.lines.contains("compared with 2026-11-20 10:00:00 to 2026-11-22 10:00:00"), "\(result)")
        let fetches = try #require(result.lines.first { $0.hasPrefix("fetches ") && $0.split(separator: " ").count == 4 }, "\(result)")
        #expect(fetches.split(separator: " ") == ["fetches", "\(since)", "\(before)", "+\(since - before)"], "\(result)")
    }

    @Test func everyGroupingOfAComparisonIsMatchedByItsKeys() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When the last day's problems per source are compared with the day before
        let result = try await sandbox.succeed(
            "stats", "--by", "source,problem", "--since", ISO.format(ProblemHistory.day(3)), "--until", ISO.format(ProblemHistory.day(4)),
            "--compare", "--format", "csv", "--no-header"
        )

        // Then each pair is set beside the same pair the day before
        var before: [[String]: Int] = [:]
        for fetch in ProblemHistory.fetches where (ProblemHistory.day(2)..<ProblemHistory.day(3)).contains(fetch.record.startedAt) {
            if let problem = fetch.problem { before[[fetch.record.source, problem], default: 0] += 1 }
        }
        let rows = try CSVAndFieldsTests.records(result.standardOutput)
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(Int(row[21]) == before[[row[0], row[1]]] ?? 0, "\(row)")
            #expect(row[24] == String(before[[row[0], row[1]]] == nil), "\(row)")
        }
    }

    @Test func p95StandsBesideTheOtherPercentiles() async throws {
        // Given twenty succeeded fetches of 10 to 29 ms
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(20))

        // When stats prints its summary, JSON, CSV and a table
        let text = try await sandbox.succeed("stats")
        let json = try await sandbox.succeed("stats", "--format", "json")
        let csv = try await sandbox.succeed("stats", "--format", "csv")
        let table = try await sandbox.succeed("stats", "--by", "source")

        // Then p95 is the 19th of 20 (28 ms), after the keys there were in JSON and CSV
        #expect(text.lines.contains("latency       p50 19ms  p90 27ms  p95 28ms  p99 29ms  max 29ms"), "\(text)")
        #expect(json.standardOutput.contains(#""latencyMs":{"p50":19,"p90":27,"p99":29,"max":29,"p95":28}"#), "\(json)")
        let rows = try CSVAndFieldsTests.records(csv.standardOutput)
        #expect(rows.first?.suffix(5) == ["p50Ms", "p90Ms", "p99Ms", "maxMs", "p95Ms"] && rows.last?.suffix(5) == ["19", "27", "29", "29", "28"], "\(csv)")
        #expect(table.lines.last?.hasSuffix("19ms  27ms  28ms  29ms") == true, "\(table)")
    }
}
