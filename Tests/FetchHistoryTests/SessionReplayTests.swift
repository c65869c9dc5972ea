import FetchHistory
import FetchHistoryTesting
import Foundation
import Testing

/// Replays of sessions recorded by a real view state.
extension FetchViewStateTests {
    struct Recording {
        var store: HistoryStore
        var session: Session

        func fetches() throws -> [Fetch] {
            var fetches: [Fetch] = []
            try store.read { db in try db.forEachFetch(matching: HistoryFilter(sessionID: session.id)) { fetches.append($0) } }
            return fetches
        }
    }

    /// Records one session: `actions` drive a view state whose source is a
    /// continuation stub, on a test clock.
    func record(
        timeout: Duration? = nil,
        _ actions: (FetchViewState<Int>, APIClientStubWithCheckedContinuation, ManualClock) async throws -> Void
    ) async throws -> Recording {
        let store = try HistoryStore.inMemory()
        let recorder = try await HistoryRecorder(store: store, source: "stub", startedAt: Timestamp(millisecondsSince1970: 1_000_000))
        do {
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: timeout)
            try await actions(viewState, client, clock)
            _ = try? await withTimeout { try await viewState.fetchTask?.value }
        }
        return Recording(store: store, session: recorder.session)
    }

    /// `fetch` as read back after the recording process died mid-fetch.
    static func asReadAfterItsRecorderDied(_ fetch: Fetch) -> Fetch {
        var fetch = fetch
        fetch.outcome = .interrupted
        fetch.endedAt = nil
        fetch.durationMilliseconds = nil
        fetch.script?.end = nil
        return fetch
    }

    func replay(_ fetches: [Fetch], of recording: Recording) async throws -> ReplayReport {
        try await SessionReplay(fetches: fetches, origin: recording.session.startedAt).run()
    }

    /// Success, then a failure a second later.
    func answeredSession() async throws -> Recording {
        try await record { viewState, client, clock in
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(150))
            await client.resume(returning: 42)
            _ = try await withTimeout { try await viewState.fetchTask?.value }
            clock.advance(by: .seconds(1))
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled(times: 2)
            clock.advance(by: .milliseconds(20))
            await client.resume(throwing: SourceFailure(message: "HTTP 503"))
        }
    }

    @Test func successAndFailureReplayExactly() async throws {
        let recording = try await answeredSession()

        let report = try await replay(recording.fetches(), of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.fetchCount == 2)
        #expect(report.steps.map(\.event) == ["fetch 1 tapped", "fetch 1 answered 42", "fetch 2 tapped", "fetch 2 failed: HTTP 503"])
        #expect(report.steps.map(\.valueLabel) == ["Not fetched yet", "42", "42", "42"])
        #expect(report.steps.last?.error == "HTTP 503")
        #expect(report.steps.map(\.offset) == [.zero, .milliseconds(150), .milliseconds(1_150), .milliseconds(1_170)])
    }

    @Test func aUserCancelReplaysExactly() async throws {
        let recording = try await record { viewState, client, clock in
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(30))
            viewState.cancelButtonTapped()
        }

        let report = try await replay(recording.fetches(), of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.last?.event == "cancel tapped")
        #expect(report.steps.last?.error == "Fetch cancelled")
        #expect(report.steps.last?.isProcessing == false)
    }

    @Test func aFetchCancelledBecauseItsProgramWasToldToStopReplaysExactly() async throws {
        // Given a fetch whose program was told to stop 30 ms in (the command notes the reason
        // when SIGTERM arrives, then cancels)
        let recording = try await record { viewState, client, clock in
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(30))
            viewState.recording.runningFetch?.noteCancel(.terminated)
            viewState.cancelButtonTapped()
        }
        #expect(try recording.fetches().map(\.outcome) == [.cancelled(.terminated)])

        // When it is replayed
        let report = try await replay(recording.fetches(), of: recording)

        // Then the replay ends it the same way, at the same moment, and says what happened
        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.map(\.event) == ["fetch 1 tapped", "program terminated"])
        #expect(report.steps.last?.offset == .milliseconds(30))
    }

    @Test func aCancelInTheSameMillisecondAsItsTapReplaysExactly() async throws {
        let recording = try await record { viewState, client, clock in
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(40))
            await client.resume(returning: 4)
            _ = try await withTimeout { try await viewState.fetchTask?.value }
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled(times: 2)
            viewState.cancelButtonTapped()
        }
        #expect(try recording.fetches().map(\.outcome) == [.succeeded(4), .cancelled(.user)])

        let report = try await replay(recording.fetches(), of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.map(\.event) == ["fetch 1 tapped", "fetch 1 answered 4", "fetch 2 tapped", "cancel tapped"])
    }

    @Test func aSupersededFetchReplaysExactly() async throws {
        let recording = try await record { viewState, client, clock in
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(20))
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled(times: 2)
            clock.advance(by: .milliseconds(30))
            await client.resume(returning: 9)
        }
        #expect(try recording.fetches().map(\.outcome) == [.cancelled(.superseded), .succeeded(9)])

        let report = try await replay(recording.fetches(), of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.fetchCount == 2)
    }

    @Test func aTimeoutReplaysExactly() async throws {
        let recording = try await record(timeout: .seconds(1)) { viewState, client, clock in
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .seconds(1))
        }
        #expect(try recording.fetches().map(\.outcome) == [.timedOut])

        let report = try await replay(recording.fetches(), of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.last?.error == "Fetch timed out after 1s")
    }

    @Test func repeatedFetchesOnAnIntervalReplayExactly() async throws {
        let store = try HistoryStore.inMemory()
        let recorder = try await HistoryRecorder(store: store, source: "random", startedAt: Timestamp(millisecondsSince1970: 0))
        do {
            let clock = ManualClock()
            let viewState = FetchViewState(
                client: RandomNumberClient(latency: .milliseconds(100), clock: clock), recorder: recorder, clock: clock
            )
            let run = Task { try await viewState.fetch(count: 4, interval: .milliseconds(250)) }
            try await clock.step(fetches: 4, latency: .milliseconds(100), interval: .milliseconds(250))
            _ = try await withTimeout { try await run.value }
        }
        let recording = Recording(store: store, session: recorder.session)

        let report = try await replay(recording.fetches(), of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.fetchCount == 4)
    }

    @Test func anEditedValueIsAMismatch() async throws {
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[0].outcome = .succeeded(43)

        let report = try await replay(fetches, of: recording)

        #expect(report.differences == ["fetch 1 was succeeded with 43 in the recording, succeeded with 42 in the replay"])
    }

    @Test func aChangedTimeIsAMismatch() async throws {
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1].endedAt?.millisecondsSince1970 += 5

        let report = try await replay(fetches, of: recording)

        #expect(report.differences == ["fetch 2 ended at 1175 ms in the recording, at 1170 ms in the replay"])
    }

    @Test func aChangedStartIsAMismatch() async throws {
        // Given a recorded session whose second fetch's start was moved 5 ms
        // later afterwards, its tap and its end left as they were
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1].startedAt.millisecondsSince1970 += 5

        // When it is replayed
        let report = try await replay(fetches, of: recording)

        // Then that start is the one difference, named with both times
        #expect(report.differences == ["fetch 2 started at 1155 ms in the recording, at 1150 ms in the replay"])
    }

    @Test func aChangedStartOfTheFetchTheRecordingEndedInIsAMismatch() async throws {
        // Given a session whose recorder died during its second fetch, that
        // fetch's start moved 5 ms later afterwards
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1] = Self.asReadAfterItsRecorderDied(fetches[1])
        fetches[1].startedAt.millisecondsSince1970 += 5

        // When it is replayed
        let report = try await replay(fetches, of: recording)

        // Then that fetch, which never ended, is still compared by its start
        #expect(report.stoppedAt != nil)
        #expect(report.differences == ["fetch 2 started at 1155 ms in the recording, at 1150 ms in the replay"])
    }

    @Test func fetchesGivenNewestFirstAreNumberedByTheirTaps() async throws {
        // Given a recorded session's fetches, newest first (as `fetches(matching:)` lists them)
        let recording = try await answeredSession()
        let newestFirst = Array(try recording.fetches().reversed())

        // When they are replayed
        let report = try await replay(newestFirst, of: recording)

        // Then fetch 1 is still the one tapped first, and the replay matches
        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.map(\.event) == ["fetch 1 tapped", "fetch 1 answered 42", "fetch 2 tapped", "fetch 2 failed: HTTP 503"])
    }

    @Test func reorderedFetchesAreAMismatch() async throws {
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        (fetches[0].startedAt, fetches[1].startedAt) = (fetches[1].startedAt, fetches[0].startedAt)

        let report = try await replay(fetches, of: recording)

        #expect(!report.matches)
        // The failure now looks as if it came first.
        #expect(report.differences.first == #"fetch 1 was failed with "HTTP 503" in the recording, succeeded with 42 in the replay"#)
    }

    @Test func aSessionRecordedBeforeScriptsIsRefusedWithItsReason() async throws {
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1].script = nil

        #expect(throws: ReplayError.noScript(fetch: 2, id: fetches[1].id)) {
            try SessionReplay(fetches: fetches, origin: recording.session.startedAt)
        }
        #expect(ReplayError.noScript(fetch: 2, id: fetches[1].id).description.contains("cannot be replayed"))
    }

    @Test func fetchesWithDifferentTimeoutsAreRefused() async throws {
        // Given a recorded session whose second fetch's timeout was edited to 1 s
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1].script?.timeoutMilliseconds = 1_000

        // When a replay is made of it
        // Then it is refused: one view state has one timeout
        #expect(throws: ReplayError.mixedTimeouts) {
            try SessionReplay(fetches: fetches, origin: recording.session.startedAt)
        }
    }

    @Test func anInterruptedFetchStopsTheReplay() async throws {
        let recording = try await answeredSession()
        var fetches = try recording.fetches()
        fetches[1] = Self.asReadAfterItsRecorderDied(fetches[1])

        let report = try await replay(fetches, of: recording)

        #expect(report.matches, "\(report.differences)")
        #expect(report.stoppedAt == "fetch 2 was interrupted when the recording ended: the replay stops there")
        #expect(report.steps.last?.event == "fetch 2 tapped")
    }

    @Test func ofSeveralFetchesWithoutAnEndTheReplayStopsAtTheFirst() async throws {
        // Given a session of three answered fetches, read back as if its
        // recorder had died during the second and the third
        let recording = try await record { viewState, client, clock in
            for call in 1...3 {
                viewState.fetchButtonTapped()
                try await client.waitUntilCalled(times: call)
                clock.advance(by: .milliseconds(100))
                await client.resume(returning: call)
                _ = try await withTimeout { try await viewState.fetchTask?.value }
                clock.advance(by: .milliseconds(100))
            }
        }
        var fetches = try recording.fetches()
        #expect(fetches.count == 3)
        fetches[1] = Self.asReadAfterItsRecorderDied(fetches[1])
        fetches[2] = Self.asReadAfterItsRecorderDied(fetches[2])

        // When it is replayed
        let report = try await replay(fetches, of: recording)

        // Then it stops at the first fetch without an end, compared up to it
        #expect(report.matches, "\(report.differences)")
        #expect(report.stoppedAt == "fetch 2 was interrupted when the recording ended: the replay stops there")
        #expect(report.fetchCount == 2)
        #expect(report.steps.map(\.event) == ["fetch 1 tapped", "fetch 1 answered 1", "fetch 2 tapped"])
    }

    @Test func anExportedSessionReplaysThroughTheTestKit() async throws {
        let recording = try await answeredSession()
        var exported: [UInt8] = []
        for fetch in try recording.fetches() {
            FetchJSON.append(fetch, to: &exported)
            exported.append(UInt8(ascii: "\n"))
        }

        let report = try await SessionReplay.replay(exported: Data(exported))

        #expect(report.matches, "\(report.differences)")
        #expect(report.fetchCount == 2)
    }
}

@MainActor @Suite struct ReplayAsATypeTests {
    /// A session whose first fetch answered 1 and second "two".
    static func mixedSession() throws -> (fetches: [Fetch], origin: Timestamp) {
        let origin = Timestamp(millisecondsSince1970: 1_000_000)
        let session = UUID()
        func fetch(at offset: Int64, answering value: FetchValue) -> Fetch {
            let start = Timestamp(millisecondsSince1970: origin.millisecondsSince1970 + offset)
            let end = Timestamp(millisecondsSince1970: start.millisecondsSince1970 + 10)
            return Fetch(
                id: UUID(), sessionID: session, source: "stub", startedAt: start, endedAt: end, durationMilliseconds: 10,
                outcome: .succeeded(value), script: FetchScript(tappedAt: start, end: FetchScript.End(cause: .answer(value), at: end))
            )
        }
        return ([fetch(at: 0, answering: 1), fetch(at: 100, answering: try FetchValue(encoding: "two"))], origin)
    }

    @Test func aSessionWithAnAnswerOfAnotherTypeIsRefusedNamingThatFetch() async throws {
        // Given a session whose second answer is a string
        let (fetches, origin) = try Self.mixedSession()
        let replay = try SessionReplay(fetches: fetches, origin: origin)

        // When it is replayed through a view state of Ints
        // Then it is refused before anything runs, naming fetch 2 and its answer
        await #expect(throws: ReplayError.answerIsNotOfType(fetch: 2, type: "Int", answer: #""two""#)) {
            try await replay.run(as: Int.self) { replay in
                FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, fetch: replay.fetch)
            }
        }
        #expect(ReplayError.answerIsNotOfType(fetch: 2, type: "Int", answer: #""two""#).description
            == #"fetch 2's recorded answer "two" is not a Int, so this view state cannot replay the session"#)
    }

    @Test func anyRecordedAnswerReplaysAsJSON() async throws {
        // Given the same session
        let (fetches, origin) = try Self.mixedSession()

        // When it is replayed without a type
        let report = await (try SessionReplay(fetches: fetches, origin: origin)).run()

        // Then it matches, whatever each answer was
        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.map(\.valueLabel).suffix(1) == [#""two""#])
    }
}
