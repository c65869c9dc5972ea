import Foundation
import LoopbackServers
import Testing

@Suite("A team history on PostgreSQL reads as the file it was pushed from", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryCommandTests {
    @Test func everyReadingCommandGivesTheSameAnswerOnTheServerAsOnTheFile() async throws {
        // Given a local history pushed to an empty team history
        let team = try await TeamFixture()
        let local = try await team.localFile()
        let push = try await team.succeed(["push", "-d", local, "--to", team.url])
        #expect(push.standardOutput.hasPrefix("pushed 10 fetches to postgres@127.0.0.1:\(team.server.port)/\(team.database): 10 new, 0 already there"), "\(push)")

        // When each reading command runs on the file and on the server
        let commands: [[String]] = [
            ["export", "--format", "jsonl"], ["export", "--format", "json"],
            ["list", "--limit", "0", "--format", "jsonl"], ["list", "--format", "tsv"], ["list"],
            ["list", "--host", "ci-*", "--format", "jsonl"], ["list", "--outcome", "failed", "--format", "json"],
            ["list", "--grep", "LINE", "--format", "jsonl"], ["list", "--source", "numbers.example", "--format", "jsonl"],
            ["list", "--session", "5e550002", "--format", "jsonl"], ["list", "--outcome", "interrupted", "--format", "jsonl"],
            ["stats", "--format", "json"], ["stats", "--by", "host", "--format", "json"], ["stats", "--by", "day"],
            ["stats", "--by", "source", "--grep", "busy", "--format", "json"], ["stats", "--by", "hour", "--format", "json"],
            ["stats", "--by", "outcome", "--since", "2026-11-21", "--format", "json"],
            ["show", "00000008"], ["show", Ids.fetch(2), "--format", "json"], ["sessions", "--format", "json"],
            ["show", "0008"], ["show", "5e550002"], ["show", "5e550002", "--format", "json"],
            ["list", "--session", "0002", "--format", "jsonl"],
            ["stats", "--by", "week", "--format", "json"], ["stats", "--by", "minute", "--format", "json"],
            ["stats", "--by", "status", "--format", "json"], ["stats", "--by", "session", "--format", "json"],
            ["stats", "--by", "week", "--grep", "busy", "--format", "json"], ["stats", "--by", "status", "--grep", "a", "--format", "json"],
            ["prune", "--keep", "3", "--dry-run"], ["prune", "--before", "2026-11-22", "--dry-run"],
            ["export", "--format", "junit"], ["export", "--format", "har"], ["report", "--format", "junit", "--by", "source", "-o", "-"],
        ]
        for command in commands {
            let onFile = try await team.sandbox.run(command + ["-d", local])
            let onServer = try await team.sandbox.run(command + ["-d", team.url])

            // Then both exit 0 and print the same bytes
            #expect(onFile.status == 0, "\(onFile)")
            #expect(onServer.status == 0 && onServer.standardOutput == onFile.standardOutput, "\(command): \(onServer) vs \(onFile)")
        }

        // And the HTML report is the same page, but for when it was written and its nonce
        func page(_ database: String) async throws -> String {
            let result = try await team.sandbox.run(["report", "-o", "-", "--since", "2026-11-20", "-d", database])
            #expect(result.status == 0, "\(result)")
            return result.standardOutput.replacing(/[0-9a-f]{32}/, with: "NONCE").replacing(/written [0-9-]+ [0-9:.]+ UTC/, with: "written")
        }
        let pageOnFile = try await page(local)
        #expect(try await page(team.url) == pageOnFile && pageOnFile.contains("<a class=\"fetch\""))
    }

    @Test func textsWithEveryCharacterARowValueQuotesComeBackFromTheServerAsTheyWere() async throws {
        // Given fetches whose texts hold what PostgreSQL quotes or doubles when it writes a row
        // value as text (a fetch crosses as one: `ROW(…)::text`), empty hosts, letters of several
        // bytes, and NULLs beside them
        let texts = [#"say "hi", (twice)"#, #"back\slash \N"#, "tab\there\nline", "日本 ü", ")", "\"", ",", " "]
        let records = texts.enumerated().map { index, text in
            ExportRecord.make(
                "failed", id: Ids.fetch(index + 1), source: "https://api.example/\(index)", at: Fixtures.day0 + Int64(index) * 1_000,
                error: text, host: index % 2 == 0 ? "" : text
            )
        } + [ExportRecord.make("succeeded", id: Ids.fetch(99), at: Fixtures.day0 + 99_000)]
        let team = try await TeamFixture()
        let local = try await team.localFile("quoted.sqlite", records)
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // When it is exported from the file and from the server, and pulled into a new file
        let onFile = try await team.succeed(["export", "--format", "jsonl", "-d", local])
        let onServer = try await team.succeed(["export", "--format", "jsonl", "-d", team.url])
        let pulled = team.sandbox.path("pulled.sqlite")
        try await team.succeed(["pull", "-d", pulled, "--from", team.url])

        // Then all three are the same bytes
        #expect(onServer.standardOutput == onFile.standardOutput)
        #expect(try await team.succeed(["export", "--format", "jsonl", "-d", pulled]).standardOutput == onFile.standardOutput)
        #expect(onFile.standardOutput.split(separator: "\n").count == texts.count + 1, "\(onFile)")
    }

    @Test func aSecondPushSendsNothingAndANewFetchAloneGoesNext() async throws {
        // Given a local history pushed once
        let team = try await TeamFixture()
        let local = try await team.localFile()
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // When it is pushed again, then again after one more fetch
        let again = try await team.succeed(["push", "-d", local, "--to", team.url, "--format", "json"])
        try await team.succeed(["fetch", "-d", local, "--latency", "0"])
        let next = try await team.succeed(["push", "-d", local, "--to", team.url, "--format", "json"])

        // Then the second sends nothing and the third only the new fetch
        #expect(again.standardOutput == #"{"sent":0,"new":0,"alreadyThere":0,"stillRunning":0}"# + "\n")
        #expect(next.standardOutput == #"{"sent":1,"new":1,"alreadyThere":0,"stillRunning":0}"# + "\n")
        #expect(try await team.server.psql("SELECT count(*) FROM fetch_history.fetch", database: team.database) == "11")
    }

    @Test func pullBringsWhatMatchesIntoTheFileAndSkipsWhatIsThere() async throws {
        // Given a team history of ten fetches on three hosts
        let team = try await TeamFixture()
        let local = try await team.localFile()
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // When the probe's fetches are pulled into a new file, then everything
        let file = team.sandbox.path("offline.sqlite")
        let probe = try await team.succeed(["pull", "-d", file, "--from", team.url, "--host", "probe-*"])
        let rest = try await team.succeed(["pull", "-d", file, "--from", team.url])

        // Then the first brings the probe's three, the second the other seven,
        // and the file then lists what the original lists
        #expect(probe.standardOutput.hasPrefix("pulled 3 fetches from postgres@127.0.0.1"), "\(probe)")
        #expect(rest.standardOutput.hasSuffix(": 7 new, 3 already here\n"), "\(rest)")
        let original = try await team.succeed(["export", "-d", local, "--format", "jsonl"])
        let pulled = try await team.succeed(["export", "-d", file, "--format", "jsonl"])
        #expect(pulled.standardOutput == original.standardOutput)
    }

    @Test func aFetchStillRunningIsPushedOnceItEndsAndAPullIsNotPushedBack() async throws {
        // Given a local history with a fetch held in flight by a server that never answers,
        // and a fetch recorded after it
        let team = try await TeamFixture()
        let local = try await team.localFile()
        let hanging = try LocalHTTPServer { _ in .hang }
        defer { hanging.stop() }
        let running = try await team.sandbox.start("fetch", "-d", local, "--source", hanging.url("/n"), "--timeout", "1d")
        let inFlight = try await team.sandbox.waitForFetch("running", in: local, of: running)
        try await team.succeed(["fetch", "-d", local, "--latency", "0"])

        // When the history is pushed, the fetch in flight is then ended (Ctrl-C), and it is pushed again
        let first = try await team.succeed(["push", "-d", local, "--to", team.url])
        let onServerFirst = try await team.server.psql("SELECT count(*) FROM fetch_history.fetch WHERE id = '\(inFlight.id)'", database: team.database)
        running.send(SIGINT)
        _ = try await running.wait()
        let second = try await team.succeed(["push", "-d", local, "--to", team.url, "--format", "json"])

        // Then the first push left the running fetch out and said so, and the second sent it
        // (with the fetch recorded after it, already there)
        #expect(first.standardOutput.hasSuffix("11 new, 0 already there; 1 fetch still running, pushed once ended\n"), "\(first)")
        #expect(onServerFirst == "0")
        #expect(second.standardOutput == #"{"sent":2,"new":1,"alreadyThere":1,"stillRunning":0}"# + "\n", "\(second)")
        #expect(try await team.server.psql("SELECT outcome FROM fetch_history.fetch WHERE id = '\(inFlight.id)'", database: team.database) == "cancelled")

        // and a file that pulls the team history has nothing to push back
        let pulled = team.sandbox.path("pulled.sqlite")
        try await team.succeed(["pull", "-d", pulled, "--from", team.url])
        let pushBack = try await team.succeed(["push", "-d", pulled, "--to", team.url])
        #expect(pushBack.standardOutput.hasPrefix("nothing to push to "), "\(pushBack)")
    }

    @Test func importIntoTheServerIsIdempotentAndRefusesWhatAFileRefuses() async throws {
        // Given an export of the standard history, and one naming a fetch twice
        let team = try await TeamFixture()
        let export = team.sandbox.path("export.jsonl")
        try ExportRecord.jsonl(TeamFixture.records).write(to: URL(fileURLWithPath: export))
        let twice = team.sandbox.path("twice.jsonl")
        try ExportRecord.jsonl([TeamFixture.records[0], TeamFixture.records[1], TeamFixture.records[0]]).write(to: URL(fileURLWithPath: twice))

        // When the export is imported into the server twice, and the bad one into the server and a file
        let first = try await team.succeed(["import", "-d", team.url, export])
        let second = try await team.succeed(["import", "-d", team.url, export])
        let refused = try await team.sandbox.run("import", "-d", team.url, twice)
        let refusedByFile = try await team.sandbox.run("import", "-d", team.sandbox.path("f.sqlite"), twice)

        // Then the first adds ten, the second none, and the bad one is refused as a file refuses it, adding nothing
        #expect(first.standardOutput == "imported 10 fetches: 10 added, 0 already present\n")
        #expect(second.standardOutput == "nothing to import: all 10 fetches are already present\n")
        #expect(refused.status == 1 && refused.standardError == refusedByFile.standardError, "\(refused) vs \(refusedByFile)")
        #expect(try await team.server.psql("SELECT count(*) FROM fetch_history.fetch", database: team.database) == "10")
    }

    @Test func pruneAndDeleteWorkOnTheServerAsOnAFile() async throws {
        // Given a team history of the standard fetches
        let team = try await TeamFixture()
        let local = try await team.localFile()
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // When the newest five are kept, then one more is deleted by id
        let pruned = try await team.succeed(["prune", "-d", team.url, "--keep", "5"])
        let deleted = try await team.succeed(["delete", "-d", team.url, "00000009"])

        // Then five went (with the session they emptied), then that one, and four are left
        #expect(pruned.standardOutput == "deleted 5 fetches (started 2026-11-20 10:00:00 to 2026-11-21 10:00:00) and 1 session left empty\n", "\(pruned)")
        #expect(deleted.standardOutput.hasPrefix("deleted \(Ids.fetch(9))"), "\(deleted)")
        let left = try await team.succeed(["list", "-d", team.url, "--format", "tsv", "--no-header"])
        #expect(left.lines.map { String($0.prefix(8)) } == ["0000000a", "00000008", "00000007", "00000006"])
    }

    @Test(arguments: [
        (["fetch"], "error: fetch records into a local file: record into one, then send it to the server with fetch-history push --to URL\n"),
        (["replay"], "error: replay works on a local file: pull the session first (fetch-history pull --from URL --since …), then replay it from the file\n"),
    ])
    func recordingAndReplayRefuseAServer(command: [String], message: String) async throws {
        // Given a team history
        let team = try await TeamFixture()

        // When a recording or replaying command names it
        let result = try await team.sandbox.run(command + ["-d", team.url])

        // Then it refuses in one sentence
        #expect(result.status == 1 && result.standardError == message, "\(result)")
    }
}

@Suite("The team-history page's example runs as written (docs/team-history.md)", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryReadmeTests {
    @Test func eachLineOfTheExampleRunsAgainstARealServer() async throws {
        // Given a team history and a local file recorded on host ci-1, and the team-history page's example
        let team = try await TeamFixture()
        let local = try await team.localFile()
        let lines = try DocsPage.block(after: "<!-- docs-sh: team-history ", fenced: "sh", in: "docs/team-history.md")
            .split(separator: "\n").map(String.init)
            .filter { !$0.contains("--follow") }
        #expect(lines.count >= 4)
        let folder = FetchHistoryProcess.binary.deletingLastPathComponent().path

        // When each line runs in a shell, the server its remote
        for line in lines {
            let script = "export FETCH_HISTORY_DB='\(local)'; " + line.replacingOccurrences(
                of: "export FETCH_HISTORY_REMOTE='postgres://ci@db.example/team?sslmode=verify-full'",
                with: "export FETCH_HISTORY_REMOTE='\(team.url)'"
            )
            let result = try await ExternalCommand.run("/bin/bash", [
                "-c", "export PATH='\(folder)':$PATH HOME='\(team.sandbox.home.path)' FETCH_HISTORY_REMOTE='\(team.url)'; \(script)",
            ])

            // Then it succeeds
            #expect(result.succeeded, "\(line): \(result)")
        }
    }
}
