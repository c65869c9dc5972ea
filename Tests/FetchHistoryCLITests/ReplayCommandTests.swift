import Foundation
import LoopbackServers
import Testing

@Suite("replay re-drives a recorded session and checks it reproduces the history")
struct ReplayCommandTests {
    /// A session of the real binary: a fetch answered, then the second
    /// cancelled with Ctrl-C while in flight. The server answers only the
    /// first request, so the signal cannot land between two fetches however
    /// slow the machine.
    func recordSessionWithACtrlC(in sandbox: Sandbox) async throws {
        let gate = try LocalHTTPServer.answeringOnlyTheFirst()
        defer { gate.stop() }
        let earlier = try await sandbox.exportedRecords().count
        let child = try await sandbox.start("fetch", "--source", gate.url("/n"), "--count", "10", "--interval", "0")
        while gate.requests.count < 2, child.isRunning { await Task.yield() }
        child.send(SIGINT)
        let result = try await child.wait()
        #expect(result.status == 130, "\(result)")
        let outcomes = try await sandbox.exportedRecords().dropFirst(earlier).map(\.outcome)
        #expect(outcomes == ["succeeded", "cancelled"], "\(outcomes)")
    }

    @Test func aRecordedSessionReplaysToAMatch() async throws {
        // Given sessions recorded by the binary: three quick fetches, then two whose second was stopped by Ctrl-C
        let sandbox = try Sandbox()
        _ = try await sandbox.succeed("fetch", "--count", "3", "--latency", "50ms", "--interval", "0")
        let first = try await sandbox.exportedRecords()[0].session
        try await recordSessionWithACtrlC(in: sandbox)

        // When each is replayed
        let newest = try await sandbox.run("replay")
        let older = try await sandbox.run("replay", String(first.prefix(8)))

        // Then both match, and the timeline shows what the screen showed
        #expect(newest.status == 0, "\(newest)")
        #expect(newest.lines.last == "replay matches 2 fetches", "\(newest)")
        #expect(newest.standardOutput.contains("cancel tapped"), "\(newest)")
        #expect(newest.standardOutput.contains("Fetch cancelled"), "\(newest)")
        #expect(older.status == 0, "\(older)")
        #expect(older.lines.last == "replay matches 3 fetches", "\(older)")
    }

    @Test func theTimelineNamesTheSessionAndSaysWhereAnInterruptedRecordingStopsIt() async throws {
        // Given a session of two fetches (imported, with their scripts): the first answered 4
        // after 100 ms, the second tapped a second later and never ended (its process killed)
        let sandbox = try Sandbox()
        let start = Fixtures.day0
        func scripted(_ record: ExportRecord, tappedAt: Int64, end: (by: String, at: Int64, value: Int)?) -> String {
            record.jsonLine.dropLast() + ",\"tappedAt\":\"\(ISO.format(tappedAt))\",\"timeoutMs\":null,"
                + "\"endedBy\":\(end.map { "\"\($0.by)\"" } ?? "null"),\"endedByAt\":\(end.map { "\"\(ISO.format($0.at))\"" } ?? "null"),"
                + "\"answerValue\":\(end.map { String($0.value) } ?? "null"),\"answerError\":null}\n"
        }
        let records = [
            scripted(.make("succeeded", id: Ids.fetch(1), at: start, duration: 100, value: 4), tappedAt: start, end: ("answer", start + 100, 4)),
            scripted(.make("interrupted", id: Ids.fetch(2), at: start + 1_100), tappedAt: start + 1_100, end: nil),
        ]
        try await sandbox.succeed("import", "-", stdin: Data(records.joined().utf8))

        // When it is replayed, in Tokyo
        let result = try await sandbox.run(["replay"], environment: sandbox.environment(.sandbox, ["TZ": "Asia/Tokyo"]))

        // Then the first line names the session, its source and its start in local time, the
        // timeline follows under its header, then where the replay stopped, and that it matches
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "replaying session 5e550001 (random, started 2026-11-20 19:00:00)",
            "  OFFSET  EVENT               PROCESSING  VALUE            ERROR",
            "     0ms  fetch 1 tapped      yes         Not fetched yet  -",
            "   100ms  fetch 1 answered 4  no          4                -",
            "  1.100s  fetch 2 tapped      yes         4                -",
            "fetch 2 was interrupted when the recording ended: the replay stops there",
            "replay matches 2 fetches",
        ], "\(result)")
    }

    @Test(arguments: [["replay"], ["replay", "--live"]])
    func aHistoryWithNoSessionsHasNothingToReplay(arguments: [String]) async throws {
        // Given a history with no sessions at all (an import of nothing creates it)
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Data())

        // When a replay is asked for without an id
        let result = try await sandbox.run(arguments)

        // Then it says so in one sentence and exits 1
        #expect(result.status == 1 && !result.wasSignalled, "\(result)")
        #expect(result.standardError == "error: the history has no sessions to replay\n", "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
    }

    @Test func anEditedRowIsReportedAsADifference() async throws {
        // Given a recorded session whose first value was edited afterwards with sqlite3
        let sandbox = try Sandbox()
        _ = try await sandbox.succeed("fetch", "--count", "3", "--latency", "50ms", "--interval", "0")
        let edit = try await ExternalCommand.run(
            "/usr/bin/sqlite3", [sandbox.database, "UPDATE fetch SET value = 1000 WHERE rowid = (SELECT min(rowid) FROM fetch)"]
        )
        #expect(edit.succeeded, "\(edit)")

        // When it is replayed
        let result = try await sandbox.run("replay")

        // Then it exits 1 naming the difference
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("replay differs from the recording:"), "\(result)")
        #expect(result.standardOutput.contains("fetch 1 was succeeded with 1000 in the recording"), "\(result)")
    }

    @Test func jsonIsOneDocumentAndJSONLinesOneObjectPerStepThenTheResult() async throws {
        // Given a recorded session of one fetch
        let sandbox = try Sandbox()
        _ = try await sandbox.succeed("fetch", "--latency", "0")

        // When it is replayed as JSON and as JSON lines
        let json = try await sandbox.run("replay", "--format", "json")
        let lines = try await sandbox.run("replay", "--format", "jsonl")

        // Then JSON is one document holding the steps and the result, and the lines the same, a line each
        #expect(json.status == 0, "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any], "\(json)")
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps.count == 2 && steps.first?["offsetMs"] != nil, "\(json)")
        #expect(document["matches"] as? Bool == true && document["fetches"] as? Int == 1, "\(json)")
        #expect(lines.status == 0 && lines.lines.count == 3, "\(lines)")
        #expect(lines.lines.first?.hasPrefix(#"{"offsetMs":"#) == true, "\(lines)")
        #expect(lines.lines.last?.hasPrefix(#"{"matches":true,"fetches":1,"#) == true, "\(lines)")
    }

    @Test func liveHonoursTheFormat() async throws {
        // Given a recorded session of two fetches
        let sandbox = try Sandbox()
        _ = try await sandbox.succeed("fetch", "--count", "2", "--latency", "0", "--interval", "0")

        // When it is re-run live as JSON, then as JSON lines
        let json = try await sandbox.run("replay", "--live", "--latency", "0", "--format", "json")
        let lines = try await sandbox.run("replay", "--live", "--latency", "0", "--format", "jsonl")

        // Then each prints the recorded and live outcomes side by side in that format, and the verdict
        #expect(json.status == 0, "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any], "\(json)")
        let fetches = try #require(document["fetches"] as? [[String: Any]], "\(json)")
        #expect(fetches.count == 2, "\(json)")
        #expect((fetches.first?["recorded"] as? [String: Any])?["outcome"] as? String == "succeeded", "\(json)")
        #expect(document["same"] as? Int == 2 && document["total"] as? Int == 2 && document["matches"] as? Bool == true, "\(json)")
        #expect(lines.status == 0 && lines.lines.count == 3, "\(lines)")
        #expect(lines.lines.last?.contains(#""same":2,"total":2,"matches":true"#) == true, "\(lines)")
    }

    @Test func aSessionRecordedBeforeScriptsIsRefusedWithItsReason() async throws {
        // Given a fetch imported from an export made before scripts were recorded
        let sandbox = try Sandbox()
        let old = #"{"id":"0f830953-351a-49c6-a54b-4632a1dfc778","session":"7502f346-5017-468f-8c9c-94080e7729ac","source":"random","outcome":"succeeded","cancelReason":null,"value":7,"error":null,"startedAt":"2026-11-22T13:50:54.706Z","endedAt":"2026-11-22T13:50:54.713Z","durationMs":7}"#
        _ = try await sandbox.succeed("import", "-", stdin: Data(old.utf8))

        // When it is replayed
        let result = try await sandbox.run("replay")

        // Then it is refused, saying why, never matched
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:") && result.standardError.contains("cannot be replayed"), "\(result)")
        #expect(!result.standardOutput.contains("matches"), "\(result)")
    }

    @Test func liveReRunsTheSessionAsANewOne() async throws {
        // Given a recorded session of two fetches, one after the other
        let sandbox = try Sandbox()
        _ = try await sandbox.succeed("fetch", "--count", "2", "--latency", "0", "--interval", "0")

        let result = try await sandbox.run("replay", "--live", "--latency", "0")

        #expect(result.status == 0, "\(result)")
        #expect(result.lines.last == "2 of 2 fetches ended the same way", "\(result)")
        #expect(Set(try await sandbox.exportedRecords().map(\.session)).count == 2)
    }
}
