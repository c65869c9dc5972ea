import Foundation
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

    @Test func jsonGivesOneObjectPerStepThenTheResult() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.succeed("fetch", "--latency", "0")

        let result = try await sandbox.run("replay", "--format", "json")

        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 3, "\(result)")
        #expect(result.lines.first?.hasPrefix(#"{"offsetMs":"#) == true, "\(result)")
        #expect(result.lines.last?.hasPrefix(#"{"matches":true,"fetches":1,"#) == true, "\(result)")
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
