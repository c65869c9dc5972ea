import Foundation
import Testing

@Suite("--problem KEY picks a problem's fetches; list --sort duration")
struct ProblemFilterTests {
    static let keys = ["HTTP 503", "timed out", "user <n> not found", "HTTP 500", "connection refused by <ip>", "cancelled", "interrupted"]

    @Test(arguments: keys)
    func listExportAndStatsPickEachProblemsFetchesAlone(key: String) async throws {
        // Given the generated history, its fetches labelled with their problems
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)
        let labelled = ProblemHistory.fetches.filter { $0.problem == key }.map(\.record)

        // When list, export and stats are given the problem's key
        let listed = try await sandbox.listedIDs(["--problem", key])
        let exported = try await sandbox.succeed("export", "--format", "jsonl", "--problem", key)
        let stats = try await sandbox.succeed("stats", "--problem", key, "--format", "json")

        // Then each has that problem's fetches and no other: list newest first, export oldest first
        #expect(listed == ExportRecord.newestFirst(labelled).map(\.id), "\(key)")
        #expect(try exported.lines.map { try ExportRecord(jsonLine: $0).id } == ExportRecord.oldestFirst(labelled).map(\.id), "\(key)")
        #expect(try ProblemStatsTests.json(stats)["total"] as? Int == labelled.count, "\(stats)")
    }

    @Test func severalProblemsAreAnyOfThemAndAnUnknownKeyMatchesNothing() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When two keys are given, then one no fetch has (a status masked, as no key is written)
        let two = try await sandbox.listedIDs(["--problem", "HTTP 500", "--problem", "cancelled"])
        let none = try await sandbox.listedIDs(["--problem", "HTTP <n>"])
        let http200 = try await sandbox.listedIDs(["--problem", "HTTP 200"])
        let padded = try await sandbox.listedIDs(["--problem", "HTTP 0503"])

        // Then the first lists both problems' fetches, the others none (not even HTTP 503's for 0503)
        let expected = ProblemHistory.fetches.filter { ["HTTP 500", "cancelled"].contains($0.problem) }.map(\.record)
        #expect(two == ExportRecord.newestFirst(expected).map(\.id))
        #expect(none.isEmpty && http200.isEmpty && padded.isEmpty)
    }

    @Test func theProblemFilterCombinesWithTheOthers() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)

        // When one problem is asked for on one host, since the second day, counted per source
        let result = try await sandbox.succeed(
            "stats", "--problem", "timed out", "--host", "ci-1", "--since", ISO.format(ProblemHistory.day(1)), "--by", "source",
            "--format", "csv", "--no-header"
        )

        // Then only those fetches count: the failure saying "timed out" and the random source's timeout
        let rows = try CSVAndFieldsTests.records(result.standardOutput)
        #expect(rows.map { [$0[0], $0[1]] } == [[ProblemHistory.users, "1"], ["random", "1"]], "\(result)")
    }

    @Test func deleteTakesAProblemAsItsOnlyFilter() async throws {
        // Given the generated history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)
        let doomed = ProblemHistory.fetches.filter { $0.problem == "HTTP 500" }.map(\.record.id)
        try #require(doomed.count > 1)

        // When delete is given a problem alone, first as a dry run
        let dryRun = try await sandbox.succeed("delete", "--problem", "HTTP 500", "--dry-run")
        let deleted = try await sandbox.succeed("delete", "--problem", "HTTP 500")

        // Then it is a filter enough to select by: those fetches went, and no other
        #expect(dryRun.standardOutput.hasPrefix("would delete \(doomed.count) fetches"), "\(dryRun)")
        #expect(deleted.standardOutput.hasPrefix("deleted \(doomed.count) fetches"), "\(deleted)")
        let left = Set(try await sandbox.exportedRecords().map(\.id))
        #expect(left == Set(ProblemHistory.records.map(\.id)).subtracting(doomed))
    }

    @Test func aFollowerPrintsOnlyTheProblemsNewFetches() async throws {
        // Given the generated history followed for HTTP 503
        let sandbox = try Sandbox()
        try await sandbox.importRecords(ProblemHistory.records)
        let follower = try await sandbox.start("list", "--follow", "--format", "jsonl", "--limit", "1", "--problem", "HTTP 503")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When another process adds a 500, a 503, a success and an error saying "HTTP 503" (masked: HTTP <n>)
        let later = ProblemHistory.day(5)
        try await sandbox.importRecords([
            .make("failed", id: Ids.fetch(901), source: ProblemHistory.users, at: later, error: "HTTP 500", status: 500, bytes: 1),
            .make("failed", id: Ids.fetch(902), source: ProblemHistory.users, at: later + 1, error: "HTTP 503", status: 503, bytes: 1),
            .make("succeeded", id: Ids.fetch(903), source: ProblemHistory.users, at: later + 2),
            .make("failed", id: Ids.fetch(904), source: ProblemHistory.users, at: later + 3, error: "HTTP 503"),
        ])
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then it printed the newest 503 of the history, then the new 503 alone
        #expect(printed, "\(result)")
        let newest503 = ExportRecord.newestFirst(ProblemHistory.fetches.filter { $0.problem == "HTTP 503" }.map(\.record)).first?.id
        #expect(try result.lines.map { try ExportRecord(jsonLine: $0).id } == [newest503, Ids.fetch(902)], "\(result)")
    }

    @Test func sortDurationListsTheLongestFirstAndThoseWithoutADurationLast() async throws {
        // Given fetches of 50, 300, 300 and 10 ms, an interrupted one and a running one, in that order
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, duration: 50),
            .make("interrupted", id: Ids.fetch(2), at: Fixtures.day0 + 1_000),
            .make("failed", id: Ids.fetch(3), at: Fixtures.day0 + 2_000, duration: 300),
            .make("timed-out", id: Ids.fetch(4), at: Fixtures.day0 + 3_000, duration: 300),
            .make("running", id: Ids.fetch(5), at: Fixtures.day0 + 4_000),
            .make("succeeded", id: Ids.fetch(6), at: Fixtures.day0 + 5_000, duration: 10),
        ])

        // When they are listed by duration, by start, and by duration with a limit and an offset
        let byDuration = try await sandbox.listedIDs(["--sort", "duration"])
        let byStart = try await sandbox.listedIDs(["--sort", "started"])
        let page = try await sandbox.listedIDs(["--sort", "duration", "--limit", "2", "--offset", "1"])

        // Then the longest come first (of equal ones, the newest), then the shorter, then those with
        // no duration, newest first; by start is the default order
        #expect(byDuration == [4, 3, 1, 6, 5, 2].map(Ids.fetch), "\(byDuration)")
        #expect(byStart == [6, 5, 4, 3, 2, 1].map(Ids.fetch))
        #expect(try await sandbox.listedIDs([]) == byStart)
        #expect(page == [3, 1].map(Ids.fetch))
    }

    @Test(arguments: [
        (["--sort", "duration", "--follow"], "--sort duration and --follow cannot be used together; a follower lists by start"),
        (["--sort", "size"], "The value 'size' is invalid for '--sort <order>'"),
    ])
    func aSortThatCannotBeIsAUsageError(arguments: [String], message: String) async throws {
        // Given a history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When list is asked to sort as it cannot
        let result = try await sandbox.run(["list"] + arguments)

        // Then it is refused in one sentence, exit 64
        #expect(result.status == 64 && result.standardError.contains(message), "\(result)")
        #expect(result.standardOutput.isEmpty)
    }
}
