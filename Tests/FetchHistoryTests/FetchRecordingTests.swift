import FetchHistoryHTTP
import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// `FetchRecording` and `RecordedFetch` for apps with a view state of their
/// own: which fetch a cancel tap ends, and when each ending is recorded.
@Suite struct FetchRecordingTests {
    /// The fetches recorded in `recorder`'s session, oldest first.
    static func recorded(by recorder: HistoryRecorder) async throws -> [Fetch] {
        let session = recorder.session.id
        return try await recorder.store.read { db in
            try db.fetches(matching: HistoryFilter(sessionID: session)).reversed()
        }
    }

    @Test func aRecordingHasNoTimeoutUnlessGivenOne() async throws {
        // Given a recording made with nothing but its recorder
        let recording = FetchRecording(recorder: try await HistoryRecorder.inMemory())

        // When a fetch is tapped
        let fetch = recording.tap()

        // Then neither the recording nor the fetch has a deadline
        #expect(recording.timeout == nil)
        #expect(fetch.deadline == nil)
    }

    @Test func theRunningFetchIsTheLastTappedUntilItEnds() async throws {
        // Given a recording with a fetch tapped and started
        let recording = FetchRecording(recorder: try await HistoryRecorder.inMemory(), clock: ManualClock())
        let fetch = recording.tap()
        try await fetch.start()
        let whileRunning = recording.runningFetch

        // When it ends, and cancel is tapped afterwards
        try await fetch.succeeded(1)
        recording.cancelTap()

        // Then it was the running fetch until it ended, and the late tap did not reach it
        #expect(whileRunning === fetch)
        #expect(recording.runningFetch == nil)
        #expect(fetch.cancellation == nil)
    }

    @Test func aFetchLetGoWithoutAnEndLeavesWithItsRecording() async throws {
        // Given a recording, and a fetch tapped and let go (never started nor ended)
        weak var letGoRecording: FetchRecording?
        weak var letGoFetch: RecordedFetch?
        let recorder = try await HistoryRecorder.inMemory()
        do {
            let recording = FetchRecording(recorder: recorder)
            let fetch = recording.tap()
            letGoRecording = recording
            letGoFetch = fetch
            #expect(recording.runningFetch === fetch)
        }

        // When both are let go: then neither keeps the other alive
        #expect(letGoFetch == nil)
        #expect(letGoRecording == nil)
    }

    @Test func anOlderFetchEndingLeavesTheNewerOneCancellable() async throws {
        // Given a fetch superseded at 10 ms by a newer one
        let recorder = try await HistoryRecorder.inMemory()
        let clock = ManualClock()
        let recording = FetchRecording(recorder: recorder, clock: clock)
        let older = recording.tap()
        clock.advance(by: .milliseconds(10))
        let newer = recording.tap()

        // When the older one ends, and cancel is tapped at 20 ms
        try await older.start()
        try await older.cancelled()
        clock.advance(by: .milliseconds(10))
        recording.cancelTap()

        // Then the newer one is still the running fetch, and the tap cancelled it
        #expect(recording.runningFetch === newer)
        #expect(newer.cancellation == FetchCancellation(reason: .user, at: .milliseconds(20)))
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.cancelled(.superseded), at: .milliseconds(10))])
    }

    @Test func aTimeoutWithoutADeadlineIsRecordedWhenItIsSaid() async throws {
        // Given a fetch without a timeout, started at 0
        let recorder = try await HistoryRecorder.inMemory()
        let clock = ManualClock()
        let recording = FetchRecording(recorder: recorder, clock: clock)
        let fetch = recording.tap()
        try await fetch.start()

        // When the app says it timed out, 250 ms later
        clock.advance(by: .milliseconds(250))
        let completed = try await fetch.timedOut()

        // Then it ended then
        #expect(completed.duration == .milliseconds(250))
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.timedOut, at: .milliseconds(250))])
    }

    @Test func aFailureErrorCarriesItsResponseIntoTheHistory() async throws {
        // Given a started fetch
        let recorder = try await HistoryRecorder.inMemory()
        let fetch = FetchRecording(recorder: recorder, clock: ManualClock()).tap()
        try await fetch.start()

        // When it fails with an HTTP error that knows its response
        try await fetch.failed(HTTPFetchError.status(SourceResponse(status: 503, bytes: 4)))

        // Then the history has the error's words and its response
        let recorded = try await Self.recorded(by: recorder)
        #expect(recorded.map(\.outcome) == [.failed("HTTP 503")])
        #expect(recorded.map(\.response) == [SourceResponse(status: 503, bytes: 4)])
    }
}

/// The moment a cancelled fetch is recorded at is its tap's, however late its task ends.
extension FetchViewStateTests {
    @Test func aCancelIsRecordedAtItsTapHoweverLateItsTaskEnds() async throws {
        // Given a source that answers even a cancelled call, asked at 0
        let client = ContinuationStub<Void, Int>(honoursCancellation: false)
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled()

        // When cancel is tapped at 30 ms, and the source answers 5 s later
        clock.advance(by: .milliseconds(30))
        viewState.cancelButtonTapped()
        clock.advance(by: .seconds(5))
        await client.resume(returning: 1)
        let completed = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the fetch ended at the tap, cancelled by the user
        #expect(completed?.outcome == .cancelled(.user))
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.cancelled(.user), at: .milliseconds(30))])
    }

    @Test func aSupersededFetchIsRecordedAtTheNewerTapHoweverLateItsTaskEnds() async throws {
        // Given a source that answers even a cancelled call, asked at 0
        let client = ContinuationStub<Void, Int>(honoursCancellation: false)
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
        viewState.fetchButtonTapped()
        let older = try #require(viewState.fetchTask)
        try await client.waitUntilCalled()

        // When fetch is tapped again at 20 ms, and the first call is answered 5 s later
        clock.advance(by: .milliseconds(20))
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)
        clock.advance(by: .seconds(5))
        #expect(await client.resume(call: 1, returning: 1))
        let olderFetch = try await withTimeout { try await older.value }
        #expect(await client.resume(call: 2, returning: 2))
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the first ended at the second tap, superseded
        #expect(olderFetch.outcome == .cancelled(.superseded))
        #expect(try await recorder.timeline() == [
            .started(1, at: .zero),
            .ended(1, .cancelled(.superseded), at: .milliseconds(20)),
            .started(2, at: .milliseconds(20)),
            .ended(2, .succeeded(2), at: .milliseconds(5_020)),
        ])
    }
}
