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

    /// A record with its script: tapped when it started, ended by `endedBy`
    /// (answer, fetch, cancel, timeout) when it ended.
    func scripted(_ record: ExportRecord, endedBy: String) -> String {
        record.jsonLine.dropLast() + ",\"tappedAt\":\"\(ISO.format(record.startedAt))\",\"timeoutMs\":null,"
            + "\"endedBy\":\"\(endedBy)\",\"endedByAt\":\"\(ISO.format(record.endedAt!))\","
            + "\"answerValue\":\(record.value.map(String.init) ?? "null"),\"answerError\":null}\n"
    }

    /// Imports `records` (one session, `Ids.session(1)`) and re-runs it live
    /// with the random source at `latency` (its default when nil): what the
    /// run printed, and the re-run's fetches, oldest first.
    func reRunLive(_ records: [String], latency: String?) async throws -> (result: CLIResult, live: [ExportRecord]) {
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Data(records.joined().utf8))
        let result = try await sandbox.run(["replay", "--live"] + (latency.map { ["--latency", $0] } ?? []))
        let live = try await sandbox.exportedRecords().filter { $0.session != Ids.session(1) }
        return (result, live)
    }

    @Test func aTapThatCameAfterThePreviousFetchEndedWaitsForItsLiveEnd() async throws {
        // Given two fetches, the second tapped 200 ms after the first was answered in 1 ms (as
        // `fetch --count 2 --interval 200ms` records them)
        let start = Fixtures.day0
        let records = [
            scripted(.make("succeeded", id: Ids.fetch(1), at: start, duration: 1, value: 4), endedBy: "answer"),
            scripted(.make("succeeded", id: Ids.fetch(2), at: start + 201, duration: 1, value: 5), endedBy: "answer"),
        ]

        // When it is re-run live against a source slower than that gap
        let (result, live) = try await reRunLive(records, latency: "300ms")

        // Then the second tap waited for the first fetch, which succeeded, not superseded, and
        // came the recorded 200 ms after its end
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.last == "2 of 2 fetches ended the same way", "\(result)")
        #expect(live.count == 2)
        if live.count == 2 { #expect(live[1].startedAt - live[0].startedAt >= 300 + 200, "\(live)") }
    }

    @Test func aTapInTheMillisecondThePreviousFetchWasAnsweredWaitsForItToo() async throws {
        // Given two fetches, the second tapped in the very millisecond the first was answered (what
        // `fetch --count 2 --interval 0` records with a fast source)
        let start = Fixtures.day0
        let records = [
            scripted(.make("succeeded", id: Ids.fetch(1), at: start, duration: 1, value: 4), endedBy: "answer"),
            scripted(.make("succeeded", id: Ids.fetch(2), at: start + 1, duration: 1, value: 5), endedBy: "answer"),
        ]

        // When it is re-run live against a slower source
        let (result, live) = try await reRunLive(records, latency: "300ms")

        // Then the second tap still waited for the first fetch's end
        #expect(result.status == 0, "\(result)")
        #expect(live.map(\.outcome) == ["succeeded", "succeeded"], "\(result)")
    }

    @Test func aCancelAndATapInTheSameMillisecondCancelFirst() async throws {
        // Given a fetch cancelled by the user, and the next tapped in the same millisecond, itself
        // cancelled 50 ms later
        let start = Fixtures.day0
        let records = [
            scripted(.make("cancelled", id: Ids.fetch(1), at: start, duration: 50, cancelReason: "user"), endedBy: "cancel"),
            scripted(.make("cancelled", id: Ids.fetch(2), at: start + 50, duration: 50, cancelReason: "user"), endedBy: "cancel"),
        ]

        // When it is re-run live against a source that takes a day, so that only the cancels can
        // end its fetches (a tap first would wait for the first fetch's end: a day)
        let (result, live) = try await reRunLive(records, latency: "1d")

        // Then the first was cancelled by the user, then the second tapped and cancelled too
        #expect(result.status == 0, "\(result)")
        #expect(live.map(\.outcome) == ["cancelled", "cancelled"], "\(result)")
        #expect(live.map(\.cancelReason) == ["user", "user"], "\(live)")
    }

    @Test func aTapThatCameWhileAFetchWasInFlightSupersedesItAgain() async throws {
        // Given a fetch superseded 50 ms after its tap by a second, which was cancelled 50 ms later
        let start = Fixtures.day0
        let records = [
            scripted(.make("cancelled", id: Ids.fetch(1), at: start, duration: 50, cancelReason: "superseded"), endedBy: "fetch"),
            scripted(.make("cancelled", id: Ids.fetch(2), at: start + 50, duration: 50, cancelReason: "user"), endedBy: "cancel"),
        ]

        // When it is re-run live against a source that takes a day, so that only the taps can end
        // its fetches
        let (result, live) = try await reRunLive(records, latency: "1d")

        // Then the second tap came without waiting for the first fetch, superseding it again
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.last == "2 of 2 fetches ended the same way", "\(result)")
        #expect(live.map(\.cancelReason) == ["superseded", "user"], "\(live)")
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

        // Then the fetch succeeds this time, the table says so, side by side, and the exit status is 1
        #expect(result.status == 1, "\(result)")
        try #require(result.lines.count == 4, "\(result)")
        #expect(result.lines[0].hasSuffix(" re-ran 1 fetch of session \(Ids.session(1).prefix(8))"), "\(result)")
        #expect(result.lines[1] == "FETCH  RECORDED                  LIVE", "\(result)")
        #expect(
            result.lines[2].range(of: #"^1      timed-out in 1m00\.000s    succeeded [0-9]+ in ([0-9]+ms|[0-9]+\.[0-9]{3}s)$"#, options: .regularExpression) != nil,
            "\(result.lines[2].debugDescription)"
        )
        #expect(result.lines.last == "0 of 1 fetch ended the same way", "\(result)")
    }

    @Test func withoutLatencyTheRandomSourceTakesASecondAgain() async throws {
        // Given a fetch answered in 1 ms
        let start = Fixtures.day0
        let records = [scripted(.make("succeeded", id: Ids.fetch(1), at: start, duration: 1, value: 4), endedBy: "answer")]

        // When it is re-run live with no --latency
        let (result, live) = try await reRunLive(records, latency: nil)

        // Then the random source took its default second to answer
        #expect(result.status == 0, "\(result)")
        #expect(live.map(\.outcome) == ["succeeded"], "\(live)")
        #expect((live.first?.durationMs ?? 0) >= 1_000, "\(live)")
    }

    /// A scripted fetch of `source` answered in 1 ms, imported, then `replay --live` with `arguments`.
    func reRunLive(of source: String, _ arguments: [String] = []) async throws -> (result: CLIResult, sessions: Int) {
        let sandbox = try Sandbox()
        let record = ExportRecord.make("succeeded", id: Ids.fetch(1), source: source, at: Fixtures.day0, duration: 1, value: 4)
        try await sandbox.succeed("import", "-", stdin: Data(scripted(record, endedBy: "answer").utf8))
        let result = try await sandbox.run(["replay", "--live"] + arguments)
        let sessions = try await sandbox.run("sessions", "--format", "jsonl")
        #expect(sessions.status == 0, "\(sessions)")
        return (result, sessions.lines.count)
    }

    @Test func aURLWhoseSecretsWereNeverRecordedIsNotFetchedAgain() async throws {
        // When a session whose URL was recorded with its token replaced is re-run live
        let (result, sessions) = try await reRunLive(of: "http://127.0.0.1:9/n?token=***")

        // Then it is refused, saying why and what to do, and no live session was begun
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardError == "error: the session's URL had secrets, which were never recorded, so it cannot be fetched again; "
                + "record a new session instead\n",
            "\(result)"
        )
        #expect(sessions == 1)
    }

    @Test func aSourceThatIsNeitherRandomNorHTTPIsNotFetchedLive() async throws {
        // When a session of an ftp source (imported) is re-run live
        let (result, sessions) = try await reRunLive(of: "ftp://h/n")

        // Then it is refused, naming the source, and no live session was begun
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: the source 'ftp://h/n' cannot be fetched live\n", "\(result)")
        #expect(sessions == 1)
    }

    @Test func latencyIsAUsageErrorForAnHTTPSession() async throws {
        // When a session of an HTTP source is re-run live with --latency
        let (result, sessions) = try await reRunLive(of: "http://127.0.0.1:9/n", ["--latency", "1s"])

        // Then it is refused as a usage error, before anything is fetched or recorded
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: --latency applies to the random source only\n"), "\(result)")
        #expect(sessions == 1)
    }
}
