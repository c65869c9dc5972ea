import Foundation
import Testing

/// `--threshold`: limits CI fails on, exit 99 when one is crossed.
@Suite("--threshold fails CI with 99 when a figure crosses its limit")
struct ThresholdTests {
    /// Ten fetches: 7 succeeded in 100 to 700 ms, 2 failed, 1 timed out, and a cancel the rates leave out.
    static let history: [ExportRecord] = (1...7).map { .make("succeeded", id: Ids.fetch($0), at: Fixtures.day0 + Int64($0) * 1_000, duration: Int64($0) * 100) }
        + [
            .make("failed", id: Ids.fetch(8), at: Fixtures.day0 + 8_000, error: "HTTP 503", status: 503, bytes: 2),
            .make("failed", id: Ids.fetch(9), source: Fixtures.otherSource, at: Fixtures.day0 + 9_000, error: "HTTP 503", status: 503, bytes: 2),
            .make("timed-out", id: Ids.fetch(10), source: Fixtures.otherSource, at: Fixtures.day0 + 10_000, duration: 2_000),
            .make("cancelled", id: Ids.fetch(11), at: Fixtures.day0 + 11_000),
        ]

    @Test func allMetExitsZeroAndSaysSoOnStandardError() async throws {
        // Given the history: 2 of 10 decided failed, 1 timed out; p95 of the successes 700 ms
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)

        // When stats checks limits it meets
        let result = try await sandbox.run(
            "stats", "--threshold", "failure-rate<=20%", "--threshold", "timeout-rate<10.5%", "--threshold", "p95<701ms",
            "--threshold", "count>=11", "--threshold", "failures<3", "--threshold", "max<1s"
        )

        // Then the usual output, a line per threshold on standard error (ASCII: not a terminal), exit 0
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("fetches       11\n"), "\(result)")
        #expect(result.standardError == """
            ok failure-rate 20.0% <= 20%
            ok timeout-rate 10.00% < 10.5%
            ok p95 700ms < 701ms
            ok count 11 >= 11
            ok failures 2 < 3
            ok max 700ms < 1s

            """, "\(result)")
    }

    @Test func aCrossedThresholdExits99AfterTheUsualOutput() async throws {
        // Given the history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)
        let plain = try await sandbox.succeed("stats")

        // When stats checks one limit it meets and two it crosses (20% is not below 20%)
        let result = try await sandbox.run("stats", "--threshold", "p99<1s", "--threshold", "failure-rate<20%", "--threshold", "p50<=300ms")

        // Then it prints what it always prints, says which were crossed, and exits 99
        #expect(result.status == 99, "\(result)")
        #expect(result.standardOutput == plain.standardOutput)
        #expect(result.standardError == "ok p99 700ms < 1s\nFAIL failure-rate 20.0% < 20%\nFAIL p50 400ms <= 300ms\n", "\(result)")
    }

    @Test func withByEachGroupIsCheckedAndACrossedOneNamesItsGroup() async throws {
        // Given the history: random failed 1 of 8 decided, the other source 2 of 2
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)

        // When each source is checked, as text and as JSON
        let result = try await sandbox.run("stats", "--by", "source", "--threshold", "failure-rate<50%")
        let json = try await sandbox.run("stats", "--by", "source", "--threshold", "failure-rate<50%", "--threshold", "p95<1s", "--format", "json")

        // Then the other source crosses it, named; the JSON has every check with its value and group
        #expect(result.status == 99, "\(result)")
        #expect(result.standardError == "FAIL failure-rate 50.0% < 50% (source https://numbers.example/api)\nok failure-rate 12.5% < 50% (source random)\n", "\(result)")
        #expect(json.status == 99, "\(json)")
        let object = try ProblemStatsTests.json(json)
        let thresholds = try #require(object["thresholds"] as? [[String: Any]], "\(json)")
        #expect(thresholds.map { $0["expr"] as? String } == ["failure-rate<50%", "failure-rate<50%", "p95<1s", "p95<1s"])
        #expect(thresholds.map { $0["ok"] as? Bool } == [false, true, false, true])
        #expect(thresholds.map { ($0["group"] as? [String: String])?["source"] } == [Fixtures.otherSource, "random", Fixtures.otherSource, "random"])
        #expect(json.standardOutput.contains(#"{"expr":"failure-rate<50%","value":0.500000,"ok":false,"group":{"source":"https://numbers.example/api"}}"#), "\(json)")
        // (the other source had no success: its p95 is none, which crosses any limit)
        #expect(json.standardOutput.contains(#"{"expr":"p95<1s","value":null,"ok":false,"#), "\(json)")
    }

    @Test func withTwoGroupingsEachPairIsChecked() async throws {
        // Given the history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)

        // When each outcome of each source, then each problem of each source, is counted against a limit
        let outcomes = try await sandbox.run("stats", "--by", "source,outcome", "--threshold", "count<5")
        let problems = try await sandbox.run("stats", "--by", "source,problem", "--threshold", "count<2")

        // Then every pair is checked, named by both keys; only random's successes cross it
        #expect(outcomes.status == 99, "\(outcomes)")
        #expect(outcomes.standardError == """
            ok count 1 < 5 (source https://numbers.example/api, outcome failed)
            ok count 1 < 5 (source https://numbers.example/api, outcome timed-out)
            FAIL count 7 < 5 (source random, outcome succeeded)
            ok count 1 < 5 (source random, outcome failed)
            ok count 1 < 5 (source random, outcome cancelled)

            """, "\(outcomes)")
        #expect(problems.status == 0, "\(problems)")
        #expect(problems.standardError == """
            ok count 1 < 2 (source https://numbers.example/api, problem HTTP 503)
            ok count 1 < 2 (source https://numbers.example/api, problem timed out)
            ok count 1 < 2 (source random, problem HTTP 503)
            ok count 1 < 2 (source random, problem cancelled)

            """, "\(problems)")
    }

    @Test(arguments: [
        ("p95", "a threshold is a figure, then <, <=, > or >=, then a limit: p95<500ms, failure-rate<1%, count>=100"),
        ("p96<500ms", "'p96' is not a figure a threshold takes; use count, failures, timeouts, failure-rate, timeout-rate, success-rate, p50, p90, p95, p99 or max"),
        ("p95<500", "p95 takes a duration with its unit, such as p95<500ms or <2s"),
        ("failure-rate<0.01", "failure-rate takes a percentage with its %, such as failure-rate<1% or <0.5%"),
        ("count>=lots", "count takes a whole number, such as count>=100"),
    ])
    func aMalformedThresholdIsAUsageErrorNamingWhatItExpected(expression: String, reason: String) async throws {
        // Given the history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)

        // When stats and fetch are given an expression that is no threshold
        let stats = try await sandbox.run("stats", "--threshold", expression)
        let fetch = try await sandbox.run("fetch", "--latency", "0", "--threshold", expression)

        // Then both refuse it with what was expected, exit 64, before doing anything
        for result in [stats, fetch] {
            #expect(result.status == 64, "\(result)")
            #expect(result.standardError.hasPrefix("error: The value '\(expression)' is invalid for '--threshold <EXPR>': \(reason)\n"), "\(result)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try await sandbox.exportedRecords().count == Self.history.count, "fetch recorded nothing")
    }

    @Test func fetchChecksTheFetchesOfItsOwnRun() async throws {
        // Given a history whose failures would cross any limit
        let sandbox = try Sandbox()
        try await sandbox.importRecords((1...5).map { .make("failed", id: Ids.fetch($0), at: Fixtures.day0 + Int64($0)) })

        // When fetch makes three fetches that time out, then three that succeed, each run with limits
        let timedOut = try await sandbox.run(
            "fetch", "--count", "3", "--interval", "0", "--latency", "10s", "--timeout", "5ms", "--threshold", "timeout-rate<50%", "--threshold", "count>=3"
        )
        let succeeded = try await sandbox.run(
            "fetch", "--count", "3", "--interval", "0", "--latency", "0", "--threshold", "failure-rate<1%", "--threshold", "p99<5s"
        )

        // Then each is checked on its own three fetches: the first crosses (99), the second meets them (0)
        #expect(timedOut.status == 99, "\(timedOut)")
        #expect(timedOut.lines.count == 3)
        #expect(timedOut.standardError == """
            3 fetches: 3 timed-out; p50 -, p95 -; top problem: timed out (3)
            FAIL timeout-rate 100.0% < 50%
            ok count 3 >= 3

            """, "\(timedOut)")
        #expect(succeeded.status == 0, "\(succeeded)")
        let lines = succeeded.standardError.split(separator: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("3 fetches: 3 succeeded; p50 "), "\(succeeded)")
        #expect(lines.dropFirst().first == "ok failure-rate 0.0% < 1%" && lines.last?.hasPrefix("ok p99 ") == true, "\(succeeded)")
    }

    @Test(arguments: [["export", "--format", "junit"], ["report", "--format", "junit", "-o", "-"]])
    func junitHasATestCasePerThresholdThatFailsWhenCrossed(command: [String]) async throws {
        // Given the history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)

        // When JUnit is written with a threshold met and one crossed
        let result = try await sandbox.run(command + ["--threshold", "p95<1s", "--threshold", "failure-rate<1%"])

        // Then a suite of thresholds follows the fetches' suites: one passing case, one failing with the figure
        #expect(result.status == 0, "\(result)")
        let xml = result.standardOutput
        #expect(xml.contains("""
              <testsuite name="thresholds" tests="2" failures="1" errors="0" skipped="0" time="0.000">
                <testcase name="p95&lt;1s" classname="thresholds" time="0.000"/>
                <testcase name="failure-rate&lt;1%" classname="thresholds" time="0.000">
                  <failure type="threshold" message="failure-rate is 20.0%, not &lt; 1%">failure-rate is 20.0%, not &lt; 1%</failure>
                </testcase>
              </testsuite>
            </testsuites>
            """), "\(result)")
        #expect(xml.contains(#"<testsuites name="fetch-history" tests="13" failures="4""#), "\(result)")
        let file = sandbox.path("thresholds.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: file))
        let valid = try await ExternalCommand.run("/usr/bin/xmllint", ["--noout", "--schema", JUnitExportTests.schema, file])
        #expect(valid.succeeded, "\(valid)")
    }

    @Test func thresholdsAreForJUnitOnlyOnExportAndReport() async throws {
        // Given a history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.history)

        // When a threshold is given to a format that cannot show it
        let export = try await sandbox.run("export", "--format", "jsonl", "--threshold", "p95<1s")

        // Then it is refused
        #expect(export.status == 64 && export.standardError.hasPrefix(
            "error: --threshold applies to --format junit only, not jsonl; stats --threshold checks any history\n"
        ), "\(export)")
    }
}
