import Foundation
import Testing

@Suite("A team history: followers, interruptions, and many writers at once", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryFaultTests {
    /// `count` succeeded fetches a second apart on `host`, ids from `first`.
    static func records(_ count: Int, first: Int, host: String = "ci-1") -> [ExportRecord] {
        (0..<count).map { index in
            ExportRecord.make(
                "succeeded", id: Ids.fetch(first + index), session: Ids.session(first / 1_000 + index / 5_000),
                at: Fixtures.day0 + Int64(first + index) * 1_000, duration: Int64(index % 900), value: index, host: host
            )
        }
    }

    /// Polls the server (each poll a psql process, which paces the loop)
    /// until it holds at least `count` fetches.
    static func waitForServer(_ team: TeamFixture, toHold count: Int, while process: FetchHistoryProcess) async throws -> Int {
        while true {
            let held = Int(try await team.server.psql("SELECT count(*) FROM fetch_history.fetch", database: team.database)) ?? 0
            if held >= count || !process.isRunning { return held }
        }
    }

    @Test func aFollowerOfTheServerPrintsWhatOtherHostsPushAsItLands() async throws {
        // Given a team history of one fetch, followed as JSON lines
        let team = try await TeamFixture()
        let first = try await team.localFile("first.sqlite", Self.records(1, first: 1))
        try await team.succeed(["push", "-d", first, "--to", team.url])
        let follower = try await team.sandbox.start("list", "-d", team.url, "--follow", "--format", "jsonl")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When another host pushes three fetches
        let other = try await team.localFile("other.sqlite", Self.records(3, first: 100, host: "probe-3"))
        try await team.succeed(["push", "-d", other, "--to", team.url])
        let printed = await follower.waitForPrintedLines(4)

        // Then the follower prints each once, and Ctrl-C ends it with exit 0
        follower.send(SIGINT)
        let result = try await follower.wait()
        #expect(printed && result.status == 0 && !result.wasSignalled, "\(result)")
        let records = try result.lines.map(ExportRecord.init(jsonLine:))
        #expect(records.map(\.id) == [Ids.fetch(1), Ids.fetch(100), Ids.fetch(101), Ids.fetch(102)])
        #expect(records.dropFirst().allSatisfy { $0.host == "probe-3" })
    }

    @Test func aPushCutOffByTheServerStoppingCompletesWhenRunAgainAndNothingIsDoubled() async throws {
        // Given a local history of 300,000 fetches, pushing to a server of its own
        let server = try await TestPostgresServer.startPrivate()
        defer { Task { await server.stop() } }
        let team = try await TeamFixture(on: server)
        let local = try await team.localFile("big.sqlite", Self.records(300_000, first: 1))
        try await team.succeed(["list", "-d", team.url])
        let push = try await team.sandbox.start("push", "-d", local, "--to", team.url)

        // When the server stops at once after the first batch landed, then starts again
        let held = try await Self.waitForServer(team, toHold: 10_000, while: push)
        try await team.server.stopImmediately()
        let cut = try await push.wait(limit: TeamFixture.bigLimit)
        try await team.server.restart()
        let again = try await team.sandbox.start(["push", "-d", local, "--to", team.url]).wait(limit: TeamFixture.bigLimit)

        // Then the first push failed in one sentence, the second finished, and the server holds each fetch once
        #expect(held < 300_000, "the push ended before the server could be stopped")
        #expect(cut.status == 1 && cut.standardError.split(separator: "\n").count == 1, "\(cut)")
        #expect(cut.standardError.hasPrefix("error: "), "\(cut)")
        #expect(again.status == 0 && again.standardOutput.contains("pushed "), "\(again)")
        #expect(try await team.server.psql("SELECT count(*), count(DISTINCT id) FROM fetch_history.fetch", database: team.database) == "300000|300000")
    }

    @Test func aPushOrAPullKilledHalfwayLeavesNothingDoubledAndARerunFinishesIt() async throws {
        // Given a local history of 200,000 fetches, pushing
        let team = try await TeamFixture()
        let local = try await team.localFile("big.sqlite", Self.records(200_000, first: 1))
        try await team.succeed(["list", "-d", team.url])
        let push = try await team.sandbox.start("push", "-d", local, "--to", team.url)

        // When the push is killed after some batches landed, and run again
        _ = try await Self.waitForServer(team, toHold: 20_000, while: push)
        push.send(SIGKILL)
        let killed = try await push.wait()
        try await team.succeed(["push", "-d", local, "--to", team.url], limit: TeamFixture.bigLimit)

        // Then the server holds every fetch exactly once
        #expect(killed.wasSignalled, "\(killed)")
        #expect(try await team.server.psql("SELECT count(*), count(DISTINCT id) FROM fetch_history.fetch", database: team.database) == "200000|200000")

        // When a pull into a new file is killed while it imports, then run again
        let file = team.sandbox.path("pulled.sqlite")
        let pull = try await team.sandbox.start("pull", "-d", file, "--from", team.url)
        while pull.isRunning, !FileManager.default.fileExists(atPath: file + "-wal") { await Task.yield() }
        pull.send(SIGKILL)
        _ = try await pull.wait()
        let check = try await ExternalCommand.run("/usr/bin/sqlite3", [file, "PRAGMA integrity_check; SELECT count(*), count(DISTINCT id) FROM fetch;"])
        let rerun = try await team.succeed(["pull", "-d", file, "--from", team.url], limit: TeamFixture.bigLimit)
        let after = try await ExternalCommand.run("/usr/bin/sqlite3", [file, "SELECT count(*), count(DISTINCT id) FROM fetch;"])

        // Then the file is sound (the pull is one transaction: all or nothing), and the rerun brings everything once
        #expect(check.standardOutput.hasPrefix("ok\n"), "\(check)")
        #expect(["ok\n0|0\n", "ok\n200000|200000\n"].contains(check.standardOutput), "\(check)")
        #expect(rerun.standardOutput.contains("pulled 200000 fetches"), "\(rerun)")
        #expect(after.standardOutput == "200000|200000\n", "\(after)")
    }

    @Test func aPullIntoAFileBeingRecordedIntoLosesNothing() async throws {
        // Given a team history of 20,000 fetches, and a file another process is recording into
        let team = try await TeamFixture()
        let source = try await team.localFile("source.sqlite", Self.records(20_000, first: 1))
        try await team.succeed(["push", "-d", source, "--to", team.url], limit: TeamFixture.bigLimit)
        let file = team.sandbox.path("busy.sqlite")
        let recorder = try await team.sandbox.start("fetch", "-d", file, "--count", "40", "--interval", "0", "--latency", "5ms")
        _ = try await team.sandbox.waitForFetch("succeeded", in: file, of: recorder)

        // When the pull runs while it records
        let pull = try await team.sandbox.start(["pull", "-d", file, "--from", team.url]).wait(limit: TeamFixture.bigLimit)
        let recorded = try await recorder.wait()

        // Then both finish, and the file holds every pulled and every recorded fetch
        #expect(pull.status == 0 && pull.standardOutput.contains("20000 new"), "\(pull)")
        #expect(recorded.status == 0, "\(recorded)")
        let count = try await ExternalCommand.run("/usr/bin/sqlite3", [file, "SELECT count(*), count(DISTINCT id) FROM fetch"])
        #expect(count.standardOutput == "20040|20040\n", "\(count)")
    }

    @Test func hostileTextReachesTheServerAsDataAndComesBackWhole() async throws {
        // Given fetches whose error, source and host hold quotes, backslashes, controls, emoji, % and _, and a 100 KB error
        let team = try await TeamFixture()
        let texts = [
            "it's \"quoted\"; DROP TABLE fetch_history.fetch; --", #"back\slash \\ and \N"#, "tab\there\nnew\rline\u{1}\u{1f}",
            "emoji 🧪 é ß", "100% of _ matched", String(repeating: "x", count: 100_000),
        ]
        let records = texts.enumerated().map { index, text in
            ExportRecord.make(
                "failed", id: Ids.fetch(index + 1), session: Ids.session(index + 1), source: "http://h/\(text.prefix(20))",
                at: Fixtures.day0 + Int64(index) * 1000, error: text, host: "h%_\(index)"
            )
        }
        let local = try await team.localFile("hostile.sqlite", records)
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // When the server's history is exported and searched
        let onFile = try await team.succeed(["export", "-d", local, "--format", "jsonl"])
        let onServer = try await team.succeed(["export", "-d", team.url, "--format", "jsonl"])
        let percent = try await team.succeed(["list", "-d", team.url, "--grep", "100%", "--format", "tsv", "--no-header"])
        let underscore = try await team.succeed(["list", "-d", team.url, "--host", "h%_5", "--format", "tsv", "--no-header"])
        let noWildcard = try await team.succeed(["list", "-d", team.url, "--host", "h__5", "--format", "tsv", "--no-header"])

        // Then everything came back byte for byte, and % and _ matched only themselves
        #expect(onServer.standardOutput == onFile.standardOutput)
        #expect(percent.lines.map { String($0.prefix(8)) } == ["00000005"])
        #expect(underscore.lines.map { String($0.prefix(8)) } == ["00000006"])
        #expect(noWildcard.lines.isEmpty)
        #expect(try await team.server.psql("SELECT count(*) FROM fetch_history.fetch", database: team.database) == "6")
    }
}
