import FetchHistory
import FetchHistoryTesting
import Testing

/// What the screen shows across fetches, and when: each test kills a way the
/// view state could get it wrong that the scenarios above would not notice.
extension FetchViewStateTests {
    struct Screen: Equatable, Sendable {
        var number: Int?
        var isProcessing = false
        var error: String?
    }

    func screen(of viewState: FetchViewState<Int>) -> Screen {
        Screen(number: viewState.number, isProcessing: viewState.isProcessing, error: viewState.error)
    }

    @Test func aNewFetchClearsThePreviousError() async throws {
        // Given a fetch that failed
        let client = APIClientStubWithCheckedContinuation()
        let viewState = FetchViewState(client: client, recorder: try await HistoryRecorder.inMemory(), clock: ManualClock())
        let screen = StateRecorder { self.screen(of: viewState) }
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled()
        await client.resume(throwing: SourceFailure(message: "HTTP 503"))
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // When fetch is tapped again, and the source answers
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)
        await client.resume(returning: 8)
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the error went away as the new fetch started, not only at its end
        #expect(try await screen.next() == Screen())
        #expect(try await screen.next() == Screen(isProcessing: true))
        #expect(try await screen.next() == Screen(error: "HTTP 503"))
        #expect(try await screen.next() == Screen(isProcessing: true))
        #expect(try await screen.next() == Screen(number: 8))
        screen.expectNoMoreChanges()
    }

    @Test func aTimeoutClearsThePreviousNumber() async throws {
        // Given a number on screen
        let client = APIClientStubWithCheckedContinuation()
        let clock = ManualClock()
        let viewState = FetchViewState(client: client, recorder: try await HistoryRecorder.inMemory(), clock: clock, timeout: .seconds(1))
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled()
        await client.resume(returning: 5)
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        #expect(viewState.number == 5)

        // When the next fetch times out
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)
        clock.advance(by: .seconds(1))
        let completed = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the old number is not left beside the timeout
        #expect(completed?.outcome == .timedOut)
        #expect(screen(of: viewState) == Screen(error: "Fetch timed out after 1s"))
        #expect(viewState.numberLabel == "Not fetched yet")
    }

    @Test func aTimeoutIsRecordedAtItsDeadlineEvenWhenNoticedLater() async throws {
        // Given a fetch with a 2 s timeout
        let client = APIClientStubWithCheckedContinuation()
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(2))
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled()

        // When the clock jumps well past the deadline before anything runs
        clock.advance(by: .seconds(7))
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then it ended at its deadline, not when the view state noticed
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.timedOut, at: .seconds(2))])
    }

    @Test func aRunStopsWhenTheUserTapsCancel() async throws {
        // Given a run of three fetches, the first answered
        let client = APIClientStubWithCheckedContinuation()
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
        let run = Task { try await viewState.fetch(count: 3, interval: .seconds(1)) }
        try await client.waitUntilCalled()
        let first = try #require(viewState.fetchTask)
        await client.resume(returning: 1)
        _ = try await withTimeout { try await first.value }

        // When the user taps cancel during the second
        clock.advance(by: .seconds(1))
        try await client.waitUntilCalled(times: 2)
        viewState.cancelButtonTapped()
        // and time passes well beyond the next interval
        clock.advance(by: .seconds(10))

        // Then the run ends there: no third fetch
        let completed = try await withTimeout { try await run.value }
        #expect(completed.map(\.outcome) == [.succeeded(1), .cancelled(.user)])
        #expect(await client.callCount == 2)
        #expect(!viewState.isProcessing)
    }

    @Test func theNextFetchOfARunStartsAnIntervalAfterTheRecordedEnd() async throws {
        let client = APIClientStubWithCheckedContinuation()
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
        let run = Task { try await viewState.fetch(count: 2, interval: .seconds(1)) }

        try await client.waitUntilCalled()
        let first = try #require(viewState.fetchTask)
        clock.advance(by: .milliseconds(300))
        await client.resume(returning: 1)
        // The answer is read at 300 ms only if it is taken before the clock moves on;
        // whether or not the run is asleep yet, the clock then reaches its deadline.
        _ = try await withTimeout { try await first.value }
        clock.advance(by: .seconds(1))
        try await client.waitUntilCalled(times: 2)
        clock.advance(by: .seconds(4))
        await client.resume(returning: 2)
        _ = try await withTimeout { try await run.value }

        #expect(try await recorder.timeline() == [
            .started(1, at: .zero), .ended(1, .succeeded(1), at: .milliseconds(300)),
            .started(2, at: .milliseconds(1_300)), .ended(2, .succeeded(2), at: .milliseconds(5_300)),
        ])
    }

    @Test func theSourceIsAskedOnlyOnceTheStartIsRecorded() async throws {
        let client = APIClientStubWithCheckedContinuation()
        let recorder = GatedRecorder()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())

        viewState.fetchButtonTapped()
        try await recorder.starts.waitUntilCalled()

        // The start is being written: the source has not been asked yet
        #expect(await client.callCount == 0)
        #expect(viewState.isProcessing)
        await recorder.starts.resume(returning: ())
        try await client.waitUntilCalled()
    }

    @Test func theScreenChangesOnlyOnceTheEndIsRecorded() async throws {
        // Given a fetch whose end is being written
        let client = APIClientStubWithCheckedContinuation()
        let recorder = GatedRecorder()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())
        viewState.fetchButtonTapped()
        try await recorder.starts.waitUntilCalled()
        await recorder.starts.resume(returning: ())
        try await client.waitUntilCalled()
        await client.resume(returning: 42)
        try await recorder.ends.waitUntilCalled()

        // Then the screen still shows the fetch in flight
        #expect(screen(of: viewState) == Screen(isProcessing: true))
        #expect(await recorder.ends.arguments.first?.outcome == .succeeded(42))

        // When the end is written, the screen shows the answer
        await recorder.ends.resume(returning: ())
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        #expect(screen(of: viewState) == Screen(number: 42))
    }

    @Test func aLateAnswerOfASupersededFetchChangesNothing() async throws {
        // Given a source that answers even cancelled calls, and a fetch superseded by a newer one
        let client = ContinuationStub<Void, Int>(honoursCancellation: false)
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())
        viewState.fetchButtonTapped()
        let older = try #require(viewState.fetchTask)
        try await client.waitUntilCalled()
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)

        // When the older call is answered late
        #expect(await client.resume(call: 1, returning: 99))
        let olderFetch = try await withTimeout { try await older.value }

        // Then it is recorded as superseded, and the screen still belongs to the newer fetch
        #expect(olderFetch.outcome == .cancelled(.superseded))
        #expect(screen(of: viewState) == Screen(isProcessing: true))
        await client.resume(call: 2, returning: 7)
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        #expect(screen(of: viewState) == Screen(number: 7))
    }
}
