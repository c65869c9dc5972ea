import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// What a replay reports at its edges: no fetches, more differences than it
/// lists, a count that differs, a fetch still running, values in another key
/// order, and which session of an export it replays.
extension FetchViewStateTests {
    @Test func aReportListsTheFirstTenDifferences() async throws {
        // Given a session of twelve answered fetches, every answer edited afterwards
        let recording = try await record { viewState, client, clock in
            for call in 1...12 {
                viewState.fetchButtonTapped()
                try await client.waitUntilCalled(times: call)
                clock.advance(by: .milliseconds(10))
                await client.resume(returning: call)
                _ = try await withTimeout { try await viewState.fetchTask?.value }
                clock.advance(by: .milliseconds(10))
            }
        }
        var fetches = try recording.fetches()
        for index in fetches.indices { fetches[index].outcome = .succeeded(999) }

        // When it is replayed
        let report = try await replay(fetches, of: recording)

        // Then the first ten of its twelve differences are listed, in order
        #expect(report.fetchCount == 12)
        #expect(report.differences == (1...10).map { "fetch \($0) was succeeded with 999 in the recording, succeeded with \($0) in the replay" })
    }

    @Test func aFetchStillRunningWhenTheRecordingEndedStopsTheReplayAndIsSaidToBeRunning() async throws {
        // Given a session whose second fetch has no end and no outcome (its recorder still runs)
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1] = Self.asReadAfterItsRecorderDied(fetches[1])
        fetches[1].outcome = nil
        #expect(fetches[1].status == .running)

        // When it is replayed
        let report = try await replay(fetches, of: recording)

        // Then it stops there, saying the fetch was still running
        #expect(report.matches, "\(report.differences)")
        #expect(report.stoppedAt == "fetch 2 was still running when the recording ended: the replay stops there")
    }

    @Test func aSessionWithoutFetchesCannotBeReplayed() {
        #expect(throws: ReplayError.noFetches) {
            try SessionReplay(fetches: [], origin: Timestamp(millisecondsSince1970: 0))
        }
        #expect(ReplayError.noFetches.description == "the session has no fetches to replay")
    }

    @Test func aReplayThatMadeAnotherNumberOfFetchesSaysSo() {
        // Given a recording of two fetches and a replay that made one
        let fetch = ReplayedFetch(start: .zero, end: .milliseconds(10), outcome: .succeeded(1))

        // When they are compared
        let differences = SessionReplay.compare(recorded: [fetch, fetch], replayed: [fetch], lastIsOpen: false)

        // Then the count is the difference
        #expect(differences == ["the recording has 2 fetches, the replay made 1"])
    }

    /// One exported line: a fetch tapped at 1 000 000 ms that answered `json` 25 ms later.
    static func answeredLine(_ json: String, session: UUID = UUID(), at start: Int64 = 1_000_000) -> String {
        let value = FetchValue(validJSON: json)
        let started = Timestamp(millisecondsSince1970: start)
        let ended = Timestamp(millisecondsSince1970: start + 25)
        return FetchJSON.string(Fetch(
            id: UUID(), sessionID: session, source: "stub", startedAt: started, endedAt: ended, durationMilliseconds: 25,
            outcome: .succeeded(value), script: FetchScript(tappedAt: started, end: FetchScript.End(cause: .answer(value), at: ended))
        ))
    }

    @Test func aValueRecordedWithItsKeysInAnotherOrderMatches() async throws {
        // Given an exported fetch whose answer has its keys out of order
        let line = Self.answeredLine(#"{"name":"Ada","id":7}"#)

        // When it is replayed (the replay writes the keys sorted)
        let report = try await SessionReplay.replay(exported: Data((line + "\n").utf8))

        // Then the value is the same value: a match
        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.last?.valueLabel == #"{"id":7,"name":"Ada"}"#)
    }

    @Test func theExportedSessionTappedLastIsReplayedUnlessOneIsNamed() async throws {
        // Given an export of a session of two fetches, and of a later session
        // of one fetch, tapped a minute after the first
        let recording = try await answeredSession()
        var exported: [UInt8] = []
        for fetch in try recording.fetches() {
            FetchJSON.append(fetch, to: &exported)
            exported.append(UInt8(ascii: "\n"))
        }
        let first = try #require(try recording.fetches().first?.startedAt)
        let later = UUID()
        exported += Array((Self.answeredLine("5", session: later, at: first.millisecondsSince1970 + 60_000) + "\n").utf8)

        // When it is replayed without naming a session, naming the first, and naming none of them
        let byDefault = try await SessionReplay.replay(exported: Data(exported))
        let named = try await SessionReplay.replay(exported: Data(exported), session: recording.session.id, as: Int.self) { replay in
            FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, fetch: replay.fetch)
        }

        // Then the later session is the default; a named one is replayed from its first tap
        #expect(byDefault.matches, "\(byDefault.differences)")
        #expect(byDefault.fetchCount == 1)
        #expect(byDefault.steps.map(\.event) == ["fetch 1 tapped", "fetch 1 answered 5"])
        #expect(named.matches, "\(named.differences)")
        #expect(named.fetchCount == 2)
        #expect(named.steps.first?.offset == .zero)
        await #expect(throws: ReplayError.noFetches) { try await SessionReplay.replay(exported: Data(exported), session: UUID()) }
    }
}
