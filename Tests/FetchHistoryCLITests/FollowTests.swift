import Foundation
import Testing

@Suite("list --follow prints each fetch as it ends, until Ctrl-C")
struct FollowTests {
    @Test func aFetchRecordedByAnotherProcessIsPrintedWhenItEnds() async throws {
        // Given a history of two fetches, followed as JSON lines from the newest one
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("failed", id: Ids.fetch(1), at: Fixtures.day0),
            .make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 1000),
        ])
        let follower = try await sandbox.start("list", "--follow", "--format", "jsonl", "--limit", "1")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When another process records a fetch that runs for a while (a start, then an end)
        let fetch = try await sandbox.run("fetch", "--latency", "300ms")
        #expect(fetch.status == 0, "\(fetch)")
        let printed = await follower.waitForPrintedLines(2)

        // Then the follower prints it once, ended, and exits 0 on Ctrl-C
        follower.send(SIGINT)
        let result = try await follower.wait()
        #expect(printed, "\(result)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        let records = try result.lines.map(ExportRecord.init(jsonLine:))
        #expect(records.count == 2, "\(result)")
        #expect(records.first?.id == Ids.fetch(2))
        let recorded = try await sandbox.exportedRecords().last
        #expect(records.last == recorded)
        #expect(records.last?.outcome == "succeeded")
    }

    @Test func aFetchRunningWhenFollowingStartsIsPrintedAgainWhenItEnds() async throws {
        // Given a fetch waiting on a server that never answers, running when the follower starts
        let server = try LocalHTTPServer { _ in .hang }
        defer { server.stop() }
        let sandbox = try Sandbox()
        let fetch = try await sandbox.start("fetch", "--source", server.url("/slow"))
        let running = try await sandbox.waitForFetch("running", of: fetch)
        let follower = try await sandbox.start("list", "--follow", "--format", "jsonl")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When the fetch ends (cancelled by Ctrl-C)
        fetch.send(SIGINT)
        let fetched = try await fetch.wait()
        #expect(fetched.status == 130, "\(fetched)")
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then it was listed running, then printed again with its outcome
        #expect(printed, "\(result)")
        let records = try result.lines.map(ExportRecord.init(jsonLine:))
        #expect(records.map(\.id) == [running.id, running.id], "\(result)")
        #expect(records.map(\.outcome) == ["running", "cancelled"], "\(result)")
    }

    @Test func theHistoryIsListedOldestFirstSoThatNewFetchesFollowBelow() async throws {
        // Given two fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0),
            .make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 1000),
        ])

        // When they are followed
        let follower = try await sandbox.start("list", "--follow", "--format", "jsonl")
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then the older comes first, as a later fetch will come below the newest
        #expect(printed, "\(result)")
        #expect(try result.lines.map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(1), Ids.fetch(2)], "\(result)")
    }

    /// A follower started without its first looks, so that only the files'
    /// change events wake it.
    func eventDrivenFollower(in sandbox: Sandbox) async throws -> FetchHistoryProcess {
        let follower = try await sandbox.start(
            "list", "--follow", "--format", "jsonl",
            environment: sandbox.environment(.sandbox, ["FETCH_HISTORY_TEST_NO_FIRST_LOOKS": "1"])
        )
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")
        return follower
    }

    @Test func aWritersCommitsWakeTheFollower() async throws {
        // Given a follower only change events wake
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await eventDrivenFollower(in: sandbox)

        // When another process records a fetch (in WAL mode it writes the -wal file alone)
        try await sandbox.succeed("fetch", "--latency", "0")
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then the follower woke and printed it
        #expect(printed, "\(result)")
        #expect(result.lines.count == 2, "\(result)")
    }

    @Test func afterAChangeTheFollowerLooksAgainAndAgain() async throws {
        // Given a follower only change events wake, asleep
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await eventDrivenFollower(in: sandbox)
        func wakeUps() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(follower.pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
            else { return nil }
            return Int(line.split(separator: "\t").last ?? "")
        }
        let before = try #require(wakeUps())

        // When a change event comes that no commit follows (a journal made and removed)
        let journal = sandbox.database + "-journal"
        #expect(FileManager.default.createFile(atPath: journal, contents: Data("x".utf8)))
        try FileManager.default.removeItem(atPath: journal)

        // Then it looks again, ten times and more, for a commit whose WAL index is late
        let deadline = ContinuousClock.now + .seconds(30)
        var after = before
        while after < before + 10, ContinuousClock.now < deadline {
            after = wakeUps() ?? after
            await Task.yield()
        }
        follower.send(SIGINT)
        let result = try await follower.wait()
        #expect(after >= before + 10, "woke \(after - before) times after the event; \(result)")
    }

    @Test func onlyFetchesMatchingTheFiltersAreFollowed() async throws {
        // Given an empty history followed for failed fetches containing "refused"
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--format", "tsv", "--no-header", "--outcome", "failed", "--grep", "REFUSED")

        // When fetches that do not match are imported, then one that does
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 1000),
            .make("failed", id: Ids.fetch(3), at: Fixtures.day0 + 2000, error: "timeout"),
        ])
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(4), at: Fixtures.day0 + 3000, error: "connection refused")])
        let printed = await follower.waitForPrintedLines(1)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then only the matching one is printed (the others were written, and read, before it)
        #expect(printed, "\(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.map { String($0.prefix(36)) } == [Ids.fetch(4)], "\(result)")
    }

    @Test func aHostFollowedMatchesASourceFirstRecordedAfterwards() async throws {
        // Given a follower of a host that has one source so far
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), source: "http://127.0.0.1:8080/n", at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--format", "tsv", "--no-header", "--source", "127.0.0.1")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When a fetch from another port of that host, then one from elsewhere, then a matching one are imported
        try await sandbox.importRecords([
            .make("failed", id: Ids.fetch(2), source: "http://127.0.0.1:9999/other", at: Fixtures.day0 + 1000),
            .make("failed", id: Ids.fetch(3), source: "http://127.0.0.2/n", at: Fixtures.day0 + 2000),
        ])
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(4), source: "https://127.0.0.1/n", at: Fixtures.day0 + 3000)])
        let printed = await follower.waitForPrintedLines(3)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then the new sources of that host are printed, the other host's is not
        #expect(printed, "\(result)")
        #expect(result.lines.map { String($0.prefix(36)) } == [Ids.fetch(1), Ids.fetch(2), Ids.fetch(4)], "\(result)")
    }

    @Test func ctrlCClosesTheJSONArray() async throws {
        // Given a follower printing one JSON array
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--format", "json")
        // Each record's line ends when the next one (or the array's end) starts.
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When a fetch is imported, printed, and Ctrl-C pressed
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 1000)])
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then the output is one complete JSON array of both, and the exit 0
        #expect(printed, "\(result)")
        #expect(result.status == 0, "\(result)")
        let array = try JSONSerialization.jsonObject(with: result.standardOutputData) as? [[String: Any]]
        #expect(array?.compactMap { $0["id"] as? String } == [Ids.fetch(1), Ids.fetch(2)], "\(result)")
    }

    @Test func theFollowerEndsWhenItsReaderGoesAway() async throws {
        // Given a follower whose output is read by `head -1`
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--format", "jsonl", standardOutput: .manual)
        let handle = try #require(follower.standardOutputHandle)

        // When the reader has read the first line and closed the pipe, with no fetch to come
        let line = await readFirstLineAndClose(handle)
        let result = try await follower.wait()

        // Then the follower notices at once and exits 0, quietly
        #expect(line.contains(Ids.fetch(1)))
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
    }

    @Test func followingRunningFetchesIsRefused() async throws {
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])

        let result = try await sandbox.run("list", "--follow", "--outcome", "running")

        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: --follow prints fetches as they end"), "\(result)")
    }
}
