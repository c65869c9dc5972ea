import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// How each way a fetch can end reaches the screen and the history, at the
/// edges the scenarios above do not reach.
extension FetchViewStateTests {
    @Test func anErrorThrownAfterTheCancelIsACancellation() async throws {
        // Given a source that turns its own cancellation into an error of its own
        let api = ContinuationStub<Void, Int>()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(recorder: recorder, clock: ManualClock()) {
            do { return try await api.call() } catch { throw SourceFailure(message: "aborted") }
        }
        viewState.fetchButtonTapped()
        try await api.waitUntilCalled()

        // When the user cancels the fetch
        viewState.cancelButtonTapped()
        let completed = try await withTimeout { try await viewState.fetchTask?.value }

        // Then it is a cancellation, not the source's failure
        #expect(completed?.outcome == .cancelled(.user))
        #expect(viewState.error == "Fetch cancelled")
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.cancelled(.user), at: .zero)])
    }

    @Test func theTimeoutCountsFromTheTapNotFromWhenTheSourceIsAsked() async throws {
        // Given a fetch with a 2 s timeout whose start takes 1.5 s to be written
        let client = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        let recorder = GatedRecorder()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(2))
        viewState.fetchButtonTapped()
        try await recorder.starts.waitUntilCalled()
        clock.advance(by: .milliseconds(1_500))
        await recorder.starts.resume(returning: ())
        try await client.waitUntilCalled()
        try await clock.waitUntilSleeping()

        // When the clock reaches 2 s after the tap
        clock.advance(by: .milliseconds(500))

        // Then the fetch times out then, at its deadline
        try await recorder.ends.waitUntilCalled(limit: .seconds(10))
        let end = try #require(await recorder.ends.arguments.first)
        #expect(end.outcome == .timedOut)
        #expect(end.offset == .seconds(2))
        await recorder.ends.resume(returning: ())
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        #expect(viewState.error == "Fetch timed out after 2s")
    }

    @Test func aTimeoutOfAFractionOfASecondIsShownInMilliseconds() async throws {
        // Given a fetch with a 1.5 s timeout
        let client = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .milliseconds(1_500))
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled()

        // When the source has not answered 1.5 s later
        clock.advance(by: .milliseconds(1_500))
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the screen says so in milliseconds, not rounded to a second
        #expect(viewState.error == "Fetch timed out after 1500ms")
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.timedOut, at: .milliseconds(1_500))])
    }

    @Test(arguments: [
        (Duration.seconds(2), "2s"), (.milliseconds(250), "250ms"), (.milliseconds(1_500), "1500ms"),
        (.seconds(60), "60s"), (.milliseconds(1), "1ms"),
    ])
    func theTimedOutTextNamesTheTimeoutInWholeSecondsOrMilliseconds(_ timeout: Duration, _ written: String) {
        #expect(FetchViewText.english.timedOut(timeout) == "Fetch timed out after \(written)")
    }

    struct Down: Error, CustomStringConvertible {
        var description: String { "the server is down" }
    }

    @Test func aFailureWithoutALocalizedDescriptionIsShownAsItDescribesItself() async throws {
        // Given a source failing with an error that only describes itself
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: APIClientStubWithTaskYield(throwing: Down()), recorder: recorder, clock: ManualClock())

        // When it is fetched
        _ = try await withTimeout { try await viewState.fetch() }

        // Then its description is what the screen shows and the history keeps
        #expect(viewState.error == "the server is down")
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.failed("the server is down"), at: .zero)])
    }

    @Test func aRecorderFailureSaysWhichFetchCouldNotBeRecordedAndWhy() async throws {
        // Given a view state whose recorder refuses every write
        let viewState = FetchViewState(client: APIClientStubWithTaskYield(returning: 1), recorder: FailingRecorder(), clock: ManualClock())

        // When it fetches
        var refused: FetchRecordingError?
        do { try await viewState.fetch() } catch { refused = error as? FetchRecordingError }

        // Then the screen names the fetch and the store's reason
        let fetch = try #require(refused?.fetch)
        #expect(viewState.error == "could not record fetch \(fetch.uuidString.lowercased()): database or disk is full")
    }

    @Test func anAnswerThatCannotBeRecordedIsAFailureAndAnError() async throws {
        // Given a source whose answer JSON cannot hold (not a number)
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState<Double>(recorder: recorder, clock: ManualClock()) { .nan }

        // When it fetches
        // Then the caller is told the fetch could not be recorded as it was
        await #expect(throws: FetchRecordingError.self) { try await withTimeout { try await viewState.fetch() } }

        // and the history has it as a failure that says why
        let session = recorder.session.id
        let outcomes = try await recorder.store.read { db in try db.fetches(matching: HistoryFilter(sessionID: session)).map(\.outcome) }
        #expect(outcomes.count == 1)
        guard case .failed(let message)? = try #require(outcomes.first) else {
            Issue.record("recorded as \(outcomes), not as a failure")
            return
        }
        #expect(message.hasPrefix("the answer could not be recorded: the value is not a Double this fetch-history can read or write as JSON: "), "\(message)")
        #expect(!viewState.isProcessing)
    }

    @Test func aRunGoesOnAfterOneOfItsFetchesIsSupersededByATap() async throws {
        // Given a run of two fetches, 1 s apart, its first in flight
        let client = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        let viewState = FetchViewState(client: client, recorder: try await HistoryRecorder.inMemory(), clock: clock)
        let run = Task { try await viewState.fetch(count: 2, interval: .seconds(1)) }
        try await client.waitUntilCalled()

        // When the user taps fetch, superseding it, and that fetch answers
        viewState.fetchButtonTapped()
        let tapped = try #require(viewState.fetchTask)
        try await client.waitUntilCalled(times: 2)
        #expect(await client.resume(call: 2, returning: 5))
        _ = try await withTimeout { try await tapped.value }

        // Then the run still makes its second fetch, an interval later
        try await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        try await client.waitUntilCalled(times: 3)
        await client.resume(returning: 6)
        let completed = try await withTimeout { try await run.value }
        #expect(completed.map(\.outcome) == [.cancelled(.superseded), .succeeded(6)])
    }

    @Test func theRandomSourceTakesASecondUnlessToldOtherwise() async throws {
        // Given the random source made without a latency
        let clock = ManualClock()
        let client = RandomNumberClient(clock: clock)
        let answer = Task { try await client.fetchRandomNumber() }
        try await clock.waitUntilSleeping()

        // When 999 ms pass, then one more
        clock.advance(by: .milliseconds(999))
        let stillWaiting = clock.sleeperCount == 1
        clock.advance(by: .milliseconds(1))

        // Then it answers only at 1 s
        #expect(stillWaiting)
        #expect((1...100).contains(try await withTimeout { try await answer.value }))
    }
}
