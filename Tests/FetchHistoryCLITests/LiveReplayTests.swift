import Foundation
import Testing

/// `replay --live`: which session it re-runs, and when it succeeds.
@Suite("replay --live re-runs a recorded session and fails unless it ends the same way")
struct LiveReplayTests {
    /// The session id a live run says it re-ran: "… of session 1234abcd".
    func original(_ result: CLIResult) -> String? {
        result.lines.first?.split(separator: " ").last.map(String.init)
    }

    @Test func withoutAnIdItReRunsTheNewestRecordedSessionNotTheLastLiveRun() async throws {
        // Given a recorded session, re-run live once
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--count", "2", "--latency", "0", "--interval", "0")
        let recorded = String(try await sandbox.exportedRecords()[0].session.prefix(8))
        let first = try await sandbox.run("replay", "--live", "--latency", "0")

        // When it is re-run live again, with no id
        let second = try await sandbox.run("replay", "--live", "--latency", "0")

        // Then both re-ran the recorded session, each as a new session of its own
        #expect(first.status == 0 && original(first) == recorded, "\(first)")
        #expect(second.status == 0 && original(second) == recorded, "\(second)")
        #expect(Set(try await sandbox.exportedRecords().map(\.session)).count == 3)
    }

    @Test func aReRunThatEndsDifferentlyExitsOne() async throws {
        // Given a session whose one fetch timed out after a minute (imported, with its script)
        let sandbox = try Sandbox()
        let start = Fixtures.day0
        let record = ExportRecord.make("timed-out", id: Ids.fetch(1), at: start, duration: 60_000).jsonLine
        let line = record.dropLast() + ",\"tappedAt\":\"\(ISO.format(start))\",\"timeoutMs\":60000,\"endedBy\":\"timeout\","
            + "\"endedByAt\":\"\(ISO.format(start + 60_000))\",\"answerValue\":null,\"answerError\":null}"
        try await sandbox.succeed("import", "-", stdin: Data((line + "\n").utf8))

        // When it is re-run live against a source that answers at once
        let result = try await sandbox.run("replay", "--live", "--latency", "0")

        // Then the fetch succeeds this time, the table says so, and the exit status is 1
        #expect(result.status == 1, "\(result)")
        #expect(result.lines.last == "0 of 1 fetch ended the same way", "\(result)")
        #expect(result.standardOutput.contains("timed-out"), "\(result)")
    }
}
