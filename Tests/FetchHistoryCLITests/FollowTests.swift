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
        // Given a fetch that would take a day, running when the follower starts (not one waiting
        // on a server that never answers: on a loaded machine the client's 60 s idle timeout
        // ended it before the Ctrl-C below)
        let sandbox = try Sandbox()
        let fetch = try await sandbox.start("fetch", "--latency", "1d")
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
            "list", "--follow", "--format", "jsonl", "--test-no-first-looks"
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

    @Test func sigtermEndsTheFollowerLikeCtrlCClosingTheJSONArray() async throws {
        // Given a follower printing one JSON array
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--format", "json")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When a fetch is imported, printed, and SIGTERM sent
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 1000)])
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGTERM)
        let result = try await follower.wait()

        // Then it exits 0 by itself, its output one complete JSON array of both
        #expect(printed, "\(result)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        let array = try JSONSerialization.jsonObject(with: result.standardOutputData) as? [[String: Any]]
        #expect(array?.compactMap { $0["id"] as? String } == [Ids.fetch(1), Ids.fetch(2)], "\(result)")
    }

    @Test func aFollowedTableWithNothingToListYetPrintsItsHeaderAndFollows() async throws {
        // Given a history with no failed fetch, followed as a table of failed fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--outcome", "failed")
        let header = await follower.waitForPrintedLines(1)

        // When a failed fetch is imported
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 1000)])
        let printed = await follower.waitForPrintedLines(2)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then the header came first, then the fetch's row, and no "no fetches match"
        #expect(header && printed, "\(result)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        #expect(result.lines.count == 2, "\(result)")
        #expect(result.lines.first?.hasPrefix("ID ") == true, "\(result)")
        #expect(result.lines.last?.hasPrefix(String(Ids.fetch(2).prefix(8)) + " ") == true, "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
    }

    /// The timeout, in ms, of the poll(2) the follower's only thread is
    /// blocked in (-1: none), or nil while it is not blocked in one. Read
    /// from /proc/PID/syscall: `7 fds nfds timeout …` (poll is 7 on x86_64).
    func pollTimeout(of follower: FetchHistoryProcess) -> Int32? {
        guard let line = try? String(contentsOfFile: "/proc/\(follower.pid)/syscall", encoding: .utf8) else { return nil }
        let fields = line.split(separator: " ")
        guard fields.count > 3, fields[0] == "7", let timeout = UInt64(fields[3].dropFirst(2), radix: 16) else { return nil }
        return Int32(truncatingIfNeeded: timeout)
    }

    /// Yields until the follower is blocked in poll(2) with a timeout that
    /// satisfies `condition`; that timeout, or nil after `limit`. Each timeout
    /// seen is added to `seen`.
    func waitForPoll(
        of follower: FetchHistoryProcess, seen: inout [Int32], limit: Duration = FetchHistoryProcess.defaultTimeLimit,
        until condition: (Int32) -> Bool
    ) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, follower.isRunning {
            if let timeout = pollTimeout(of: follower) {
                if seen.last != timeout { seen.append(timeout) }
                if condition(timeout) { return timeout }
            }
            await Task.yield()
        }
        return nil
    }

    @Test(.enabled(if: FollowTests.isX86_64, "reads poll(2)'s arguments as x86_64 numbers them"))
    func anIdleFollowerLooksLessAndLessOftenThenSleepsWithNoTimer() async throws {
        // Given a follower that has printed the history
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let follower = try await sandbox.start("list", "--follow", "--format", "jsonl")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When nothing is written, while it takes its looks (about 7 s; the limit is the default
        // 60 s: a full run with two builds beside it saw only 1.6 s reached within 30)
        var seen: [Int32] = []
        let asleep = await waitForPoll(of: follower, seen: &seen) { $0 == -1 }
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then it waited longer and longer between its looks (50 ms, …, 3.2 s), then with no
        // timeout at all: only the kernel (a change, a signal, its reader leaving) wakes it now,
        // so idle it never runs
        #expect(asleep == -1, "poll timeouts seen: \(seen); \(result)")
        let looks = seen.dropLast()
        let schedule: Set<Int32> = [50, 100, 200, 400, 800, 1_600, 3_200]
        #expect(looks.allSatisfy(schedule.contains) && looks.elementsEqual(looks.sorted()), "\(seen)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
    }

    #if arch(x86_64)
    static let isX86_64 = true
    #else
    static let isX86_64 = false
    #endif

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
