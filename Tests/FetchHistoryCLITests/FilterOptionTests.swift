import Foundation
import Testing

/// The filters people reach for: several outcomes, the HTTP status, bounds
/// on the duration, an offset, the sessions' own filters and the short
/// flags, each through the binary.
@Suite("Filters: several outcomes, --status, duration bounds, --offset, sessions, -n and -f")
struct FilterOptionTests {
    // MARK: Several outcomes

    @Test(arguments: [
        ["--outcome", "failed,timed-out"],
        ["--outcome", "failed", "--outcome", "timed-out"],
        ["--outcome", "FAILED", "--outcome", "Timed-Out"],
        ["--outcome", "timed-out,failed,failed"],
    ])
    func severalOutcomesSelectFetchesOfAnyOfThemInAnyCase(_ filter: [String]) async throws {
        // Given the standard history: two failed fetches and one timed out among every outcome
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When listed with the two outcomes, written in one option or two, in any case
        let listed = try await sandbox.listedIDs(filter)

        // Then every fetch of either outcome is listed, newest first, and no other
        #expect(listed == [10, 5, 2].map(Ids.fetch), "\(filter)")
    }

    @Test func statsAndExportTakeSeveralOutcomesToo() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When stats and export are asked for the succeeded and the interrupted fetches, by repeated options
        let stats = try await sandbox.run("stats", "--outcome", "succeeded", "--outcome", "interrupted", "--format", "json")
        let export = try await sandbox.run("export", "--outcome", "interrupted,succeeded", "--format", "jsonl")

        // Then stats counts both outcomes (latency from the succeeded ones) and export writes both, oldest first
        let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
        let counts = try #require(object["counts"] as? [String: Int], "\(stats)")
        #expect(object["total"] as? Int == 5 && counts["succeeded"] == 3 && counts["interrupted"] == 2, "\(stats)")
        #expect((object["latencyMs"] as? [String: Int])?["max"] == 1_250, "\(stats)")
        #expect(try export.lines.map { try ExportRecord(jsonLine: $0).id } == [1, 6, 7, 8, 9].map(Ids.fetch), "\(export)")
    }

    @Test(arguments: [
        (["--outcome", "bogus"], "'bogus' is not an outcome"),
        (["--outcome", "failed,"], "'' is not an outcome"),
        (["--outcome", "failed,nope"], "'nope' is not an outcome"),
    ])
    func anUnknownOutcomeAmongSeveralIsRefused(_ filter: [String], _ reason: String) async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When one of the outcomes given is none
        let result = try await sandbox.run(["list"] + filter)

        // Then it is a usage error naming it and listing the outcomes
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: "), "\(result)")
        #expect(result.standardError.contains(reason + "; use one of running, succeeded, failed, cancelled, timed-out, interrupted"), "\(result)")
    }

    // MARK: The HTTP status

    /// Fetch n answered with `statuses[n - 1]` (nil: the random source, no status), a minute apart.
    static let statuses: [Int?] = [200, 404, 429, 500, 503, nil, 301, 201]

    static func statusHistory() -> [ExportRecord] {
        statuses.enumerated().map { index, status in
            let outcome = status.map { $0 < 400 ? "succeeded" : "failed" } ?? "succeeded"
            return ExportRecord.make(
                outcome, id: Ids.fetch(index + 1), source: status == nil ? "random" : "http://127.0.0.1:8080/n",
                at: Fixtures.day0 + Int64(index) * 60_000, status: status, bytes: status.map { _ in 2 }
            )
        }
    }

    @Test(arguments: [
        (["--status", "404"], [2]),
        (["--status", "4xx"], [2, 3]),
        (["--status", "5XX"], [4, 5]),
        (["--status", "4xx,5xx"], [2, 3, 4, 5]),
        (["--status", "404", "--status", "5xx"], [2, 4, 5]),
        (["--status", "2xx"], [1, 8]),
        (["--status", "3xx,201"], [7, 8]),
        (["--status", "100"], []),
        (["--status", "2xx", "--outcome", "failed"], []),
    ])
    func statusSelectsACodeOrAClassAndNeverAFetchWithoutOne(_ filter: [String], _ expected: [Int]) async throws {
        // Given fetches answered 200, 404, 429, 500, 503, 301 and 201, and one from the random source
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.statusHistory())

        // When listed by HTTP status
        let listed = try await sandbox.listedIDs(filter)

        // Then an exact code or a whole class is listed, several join, and the random source's fetch never is
        #expect(listed == expected.reversed().map(Ids.fetch), "\(filter)")
    }

    @Test func statsAndExportTakeTheStatusToo() async throws {
        // Given fetches answered with every class of status
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.statusHistory())

        // When stats and export are asked for the 5xx answers
        let stats = try await sandbox.run("stats", "--status", "5xx", "--format", "json")
        let export = try await sandbox.run("export", "--status", "5xx", "--format", "jsonl")

        // Then both see those two fetches
        let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
        #expect(object["total"] as? Int == 2, "\(stats)")
        #expect(try export.lines.map { try ExportRecord(jsonLine: $0).status } == [500, 503], "\(export)")
    }

    @Test(arguments: ["42", "600", "099", "4x", "4xxx", "xxx", "", "4 4", "-404", "404,"])
    func aValueThatIsNoStatusIsRefused(_ value: String) async throws {
        // Given fetches with HTTP statuses
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.statusHistory())

        // When --status is given something that is no status code or class
        let result = try await sandbox.run("list", "--status", value)

        // Then it is a usage error saying what a status is
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: The value '\(value)' is invalid for '--status <status>': "), "\(result)")
        #expect(result.standardError.contains("is not an HTTP status; use a code from 100 to 599 (404) or a class (4xx)"), "\(result)")
    }

    // MARK: Duration bounds

    /// Fetch n took `durations[n - 1]` ms (nil: interrupted, no duration), a minute apart.
    static let durations: [Int64?] = [100, 249, 250, 999, 1_000, 2_000, nil]

    static func durationHistory() -> [ExportRecord] {
        durations.enumerated().map { index, duration in
            ExportRecord.make(
                duration == nil ? "interrupted" : index % 2 == 0 ? "succeeded" : "failed", id: Ids.fetch(index + 1),
                at: Fixtures.day0 + Int64(index) * 60_000, duration: duration ?? 0
            )
        }
    }

    @Test(arguments: [
        (["--min-duration", "250ms"], [3, 4, 5, 6]),
        (["--max-duration", "1s"], [1, 2, 3, 4, 5]),
        (["--min-duration", "250ms", "--max-duration", "1s"], [3, 4, 5]),
        (["--min-duration", "1s", "--max-duration", "1s"], [5]),
        (["--min-duration", "0"], [1, 2, 3, 4, 5, 6]),
        (["--min-duration", "1.5s"], [6]),
        (["--max-duration", "99ms"], []),
        (["--min-duration", "250ms", "--outcome", "failed"], [4, 6]),
    ])
    func durationBoundsAreInclusiveAndLeaveOutFetchesThatNeverEnded(_ filter: [String], _ expected: [Int]) async throws {
        // Given fetches that took 100ms, 249ms, 250ms, 999ms, 1s and 2s, and one interrupted
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.durationHistory())

        // When listed by duration
        let listed = try await sandbox.listedIDs(filter)

        // Then both bounds are included, and the interrupted fetch (no duration) is never listed
        #expect(listed == expected.reversed().map(Ids.fetch), "\(filter)")
    }

    @Test func statsAndExportTakeTheDurationBoundsToo() async throws {
        // Given fetches of several durations
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.durationHistory())

        // When stats and export are asked for the fetches of 250ms to 1s
        let stats = try await sandbox.run("stats", "--min-duration", "250ms", "--max-duration", "1s", "--format", "json")
        let export = try await sandbox.run("export", "--min-duration", "250ms", "--max-duration", "1s", "--format", "jsonl")

        // Then stats counts those three, its latency from the two that succeeded, and export writes them
        let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
        #expect(object["total"] as? Int == 3, "\(stats)")
        #expect((object["latencyMs"] as? [String: Int]) == ["p50": 250, "p90": 1_000, "p95": 1_000, "p99": 1_000, "max": 1_000], "\(stats)")
        #expect(try export.lines.map { try ExportRecord(jsonLine: $0).durationMs } == [250, 999, 1_000], "\(export)")
    }

    @Test func aMinimumAboveTheMaximumIsRefusedAsMatchingNothing() async throws {
        // Given fetches of several durations
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.durationHistory())

        // When the least duration asked for is more than the most
        let result = try await sandbox.run("list", "--min-duration", "2s", "--max-duration", "1s")

        // Then it is one usage error saying why nothing could match, not an empty listing
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: no fetch can match: --min-duration 2s is longer than --max-duration 1s\n"), "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
    }

    // MARK: Offset

    @Test(arguments: [
        (["--offset", "0"], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        (["--offset", "3"], [7, 6, 5, 4, 3, 2, 1]),
        (["--offset", "3", "--limit", "2"], [7, 6]),
        (["--offset", "1", "--outcome", "succeeded"], [8, 1]),
        (["--offset", "1", "--outcome", "succeeded", "--limit", "1"], [8]),
        (["--offset", "10"], []),
        (["--offset", "99", "--limit", "5"], []),
        (["--offset", "2", "--grep", "random"], [4, 3, 2, 1]),
        (["--offset", "1", "--source", "numbers.example"], [7, 6, 5]),
    ])
    func offsetSkipsTheNewestThatMatchThenLimitApplies(_ filter: [String], _ expected: [Int]) async throws {
        // Given the standard history of ten fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When listed with an offset (listedIDs adds --limit 0 before the filter)
        let listed = try await sandbox.listedIDs(filter)

        // Then the newest N that match are skipped, and --limit counts from there
        #expect(listed == expected.map(Ids.fetch), "\(filter)")
    }

    @Test func theTableSaysNothingMatchesPastTheEnd() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When the table is asked to skip every fetch
        let result = try await sandbox.run("list", "--offset", "10")

        // Then nothing is printed and stderr says no fetch matches, exit 0
        #expect(result.status == 0 && result.standardOutput.isEmpty, "\(result)")
        #expect(result.standardError == "no fetches match\n", "\(result)")
    }

    // MARK: Short flags

    @Test func dashNIsTheLimitOfListAndSessions() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When list and sessions are given -n
        let list = try await sandbox.run("list", "-n", "2", "--format", "jsonl")
        let sessions = try await sandbox.run("sessions", "-n", "1", "--format", "jsonl")
        let negative = try await sandbox.run("list", "-n", "-1")

        // Then -n is --limit, a negative one refused in --limit's words
        #expect(try list.lines.map { try ExportRecord(jsonLine: $0).id } == [10, 9].map(Ids.fetch), "\(list)")
        #expect(sessions.status == 0 && sessions.lines.count == 1 && sessions.standardOutput.contains(Ids.session(3)), "\(sessions)")
        #expect(negative.status == 64 && negative.standardError.hasPrefix("error: --limit must be 0 or more, not -1\n"), "\(negative)")
    }

    @Test func dashFIsFollow() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When -f is combined with what only --follow refuses
        let running = try await sandbox.run("list", "-f", "--outcome", "running")
        let offset = try await sandbox.run("list", "-f", "--offset", "1")
        let help = try await sandbox.run("list", "--help")

        // Then each is --follow's refusal, and the help names both short flags
        #expect(running.status == 64, "\(running)")
        #expect(running.standardError.hasPrefix("error: --follow prints fetches as they end, so none would ever show as running"), "\(running)")
        #expect(offset.status == 64 && offset.standardError.hasPrefix("error: --offset and --follow cannot be used together; choose one\n"), "\(offset)")
        #expect(help.standardOutput.contains("-n, --limit <limit>") && help.standardOutput.contains("-f, --follow"), "\(help)")
    }

    @Test func followRefusesRunningAmongSeveralOutcomes() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When --follow is asked for the failed and the running fetches
        let result = try await sandbox.run("list", "--follow", "--outcome", "failed,running")

        // Then it is refused as --outcome running alone is: no followed fetch is ever running
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: --follow prints fetches as they end, so none would ever show as running"), "\(result)")
    }

    // MARK: Sessions

    /// Five sessions of one fetch each, an hour apart: two hosts, three sources.
    static func sessionHistory() -> [ExportRecord] {
        let sources = ["random", "http://127.0.0.1:8080/n", "https://numbers.example/api", "http://127.0.0.1:9090/x", "random"]
        let hosts = ["ci-1", "ci-2", "probe-3", "ci-1", "probe-3"]
        return (0..<5).map { index in
            ExportRecord.make(
                "succeeded", id: Ids.fetch(index + 1), session: Ids.session(index + 1), source: sources[index],
                at: Fixtures.day0 + Int64(index) * Fixtures.hour, host: hosts[index]
            )
        }
    }

    /// The session ids `sessions --format jsonl` prints for `filters`, in order.
    static func sessionIDs(_ sandbox: Sandbox, _ filters: [String], database: String? = nil) async throws -> [String] {
        let result = try await sandbox.run(["sessions", "--limit", "0", "--format", "jsonl"] + filters + (database.map { ["-d", $0] } ?? []))
        #expect(result.status == 0, "\(result)")
        return try result.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result)")
            return try #require(object["id"] as? String, "\(result)")
        }
    }

    static let sessionFilters: [([String], [Int])] = [
        (["--since", "2026-11-20T11:00:00Z"], [2, 3, 4, 5]),
        (["--until", "2026-11-20T11:00:00Z"], [1]),
        (["--since", "2026-11-20T11:00:00Z", "--until", "2026-11-20T13:00:00Z"], [2, 3]),
        (["--source", "127.0.0.1"], [2, 4]),
        (["--source", "http://127.0.0.1:8080/"], [2]),
        (["--source", "random"], [1, 5]),
        (["--host", "ci-*"], [1, 2, 4]),
        (["--host", "ci-*", "--source", "random"], [1]),
        (["--host", "nobody"], []),
    ]

    @Test(arguments: sessionFilters)
    func sessionsAreFilteredByStartSourceAndHost(_ filter: [String], _ expected: [Int]) async throws {
        // Given five sessions an hour apart on three hosts with three sources
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.sessionHistory())

        // When the sessions are listed with a filter
        let listed = try await Self.sessionIDs(sandbox, filter)

        // Then only those started in the range, of the source, on the host are listed, newest first
        #expect(listed == expected.reversed().map(Ids.session), "\(filter)")
    }

    @Test func aTableOfNoMatchingSessionsSaysSo() async throws {
        // Given five sessions
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.sessionHistory())

        // When the table is filtered to none
        let result = try await sandbox.run("sessions", "--host", "nobody")

        // Then stderr says none match (not that none were recorded), exit 0
        #expect(result.status == 0 && result.standardOutput.isEmpty, "\(result)")
        #expect(result.standardError == "no sessions match\n", "\(result)")
    }

    @Test(arguments: [
        (["--source", ""], "error: --source is empty; give a source, a host or a URL prefix"),
        (["--host", ""], "error: --host is empty; give a host name or a pattern such as 'ci-*'"),
    ])
    func anEmptySessionFilterIsRefused(_ filter: [String], _ message: String) async throws {
        // Given five sessions
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.sessionHistory())

        // When sessions gets an empty source or host (an unset variable, most often)
        let result = try await sandbox.run(["sessions"] + filter)

        // Then it is a usage error, as list says it
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix(message + "\n"), "\(result)")
    }
}
