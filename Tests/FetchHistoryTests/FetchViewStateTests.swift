import FetchHistory
import FetchHistoryTesting
import Foundation
import Testing

/// The view state, driven by stubs the test answers and clocks it advances:
/// each step waits for something observable (a stub's call, a fetch's
/// task, a recorded state), never for the scheduler.
@MainActor
@Suite
struct FetchViewStateTests {
    @Test func showsTheFetchInFlightUntilTheSourceAnswers() async throws {
        do {
            // Given a source that answers only when told
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
            #expect(viewState.numberLabel == "Not fetched yet")

            // When a fetch starts
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()

            // Then it is in flight, and its start is already recorded
            #expect(viewState.isProcessing)
            #expect(viewState.number == nil)
            #expect(try await recorder.timeline() == [.started(at: .zero)])

            // When the source answers 150 ms later
            clock.advance(by: .milliseconds(150))
            await client.resume(returning: 42)
            let completed = try await withTimeout { try await viewState.fetchTask?.value }

            // Then the screen shows it and the history has both transitions
            #expect(completed?.outcome == .succeeded(42))
            #expect(viewState.number == 42)
            #expect(viewState.numberLabel == "42")
            #expect(!viewState.isProcessing)
            #expect(viewState.error == nil)
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.succeeded(42), at: .milliseconds(150))])
        }
    }

    @Test func aFailureIsShownAndRecorded() async throws {
        do {
            let client = APIClientStubWithTaskYield(throwing: SourceFailure(message: "HTTP 503"))
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())

            viewState.fetchButtonTapped()
            #expect(viewState.isProcessing)
            _ = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(viewState.error == "HTTP 503")
            #expect(viewState.numberLabel == "Not fetched yet")
            #expect(!viewState.isProcessing)
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.failed("HTTP 503"), at: .zero)])
        }
    }

    @Test func aTaskYieldStubAnswersAfterOneStep() async throws {
        do {
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: APIClientStubWithTaskYield(returning: 7), recorder: recorder, clock: ManualClock())

            viewState.fetchButtonTapped()
            #expect(viewState.isProcessing)
            let completed = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(completed?.outcome == .succeeded(7))
            #expect(viewState.number == 7)
            #expect(!viewState.isProcessing)
        }
    }

    @Test func theUserCancelsAFetchInFlight() async throws {
        do {
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(30))

            viewState.cancelButtonTapped()
            let completed = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(completed?.outcome == .cancelled(.user))
            #expect(viewState.number == nil)
            #expect(viewState.error == "Fetch cancelled")
            #expect(!viewState.isProcessing)
            #expect(await client.pendingCount == 0)
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.cancelled(.user), at: .milliseconds(30))])
        }
    }

    @Test func cancellingClearsAnEarlierNumber() async throws {
        do {
            let client = APIClientStubWithCheckedContinuation()
            let viewState = FetchViewState(client: client, recorder: try await HistoryRecorder.inMemory(), clock: ManualClock())
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()
            await client.resume(returning: 5)
            _ = try await withTimeout { try await viewState.fetchTask?.value }
            #expect(viewState.number == 5)

            viewState.fetchButtonTapped()
            try await client.waitUntilCalled(times: 2)
            viewState.cancelButtonTapped()
            _ = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(viewState.number == nil)
            #expect(viewState.numberLabel == "Not fetched yet")
        }
    }

    @Test func aNewFetchSupersedesTheOneInFlight() async throws {
        do {
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
            viewState.fetchButtonTapped()
            let first = try #require(viewState.fetchTask)
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(20))

            // When fetch is tapped again before the source answered
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled(times: 2)
            let older = try await withTimeout { try await first.value }

            // Then the older fetch is cancelled as superseded, and the screen
            // belongs to the newer one
            #expect(older.outcome == .cancelled(.superseded))
            #expect(viewState.isProcessing)
            #expect(viewState.error == nil)

            clock.advance(by: .milliseconds(30))
            await client.resume(returning: 9)
            _ = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(viewState.number == 9)
            #expect(!viewState.isProcessing)
            #expect(try await recorder.timeline() == [
                .started(1, at: .zero),
                .ended(1, .cancelled(.superseded), at: .milliseconds(20)),
                .started(2, at: .milliseconds(20)),
                .ended(2, .succeeded(9), at: .milliseconds(50)),
            ])
        }
    }

    @Test func fetchesTappedInOneMillisecondAreRecordedInTapOrder() async throws {
        // The history orders fetches by start time, then by the order their
        // starts were written: for a double tap (two starts in one
        // millisecond) that must be the order of the taps, or the list, the
        // export and a replay of the session put the second first.
        for round in 0..<200 {
            // Given a view state on a clock that stands still
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: YieldingStub(returning: 7), recorder: recorder, clock: ManualClock())

            // When fetch is tapped twice at once
            viewState.fetchButtonTapped()
            let first = try #require(viewState.fetchTask)
            viewState.fetchButtonTapped()
            let second = try #require(viewState.fetchTask)
            let tapped = [try await withTimeout { try await first.value }.id, try await withTimeout { try await second.value }.id]

            // Then the history has them in the order they were tapped
            let session = recorder.session.id
            let listed = try await recorder.store.read { db in
                try db.fetches(matching: HistoryFilter(sessionID: session)).reversed().map(\.id)
            }
            #expect(listed == tapped, "round \(round)")
            if listed != tapped { break }
        }
    }

    @Test func aFetchTappedAndLetGoWithoutAStartHoldsNoLaterFetchBack() async throws {
        // Given a recording whose first tapped fetch is let go without being started
        let recorder = try await HistoryRecorder.inMemory()
        let recording = FetchRecording(recorder: recorder, clock: ManualClock())
        _ = recording.tap()

        // When the next fetch is tapped and started
        let next = recording.tap()
        try await withTimeout { try await next.start() }

        // Then its start is written (the first, never started, is not in the history)
        #expect(try await recorder.timeline() == [.started(1, at: .zero)])
    }

    @Test func aFetchLongerThanTheTimeoutIsRecordedAsTimedOut() async throws {
        do {
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(2))
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()

            clock.advance(by: .milliseconds(1_999))
            #expect(viewState.isProcessing)
            clock.advance(by: .milliseconds(1))
            let completed = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(completed?.outcome == .timedOut)
            #expect(viewState.error == "Fetch timed out after 2s")
            #expect(viewState.number == nil)
            #expect(await client.pendingCount == 0)
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.timedOut, at: .seconds(2))])
        }
    }

    @Test func anAnswerBeforeTheTimeoutWins() async throws {
        do {
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(2))
            viewState.fetchButtonTapped()
            try await client.waitUntilCalled()

            clock.advance(by: .milliseconds(500))
            await client.resume(returning: 3)
            _ = try await withTimeout { try await viewState.fetchTask?.value }
            clock.advance(by: .seconds(5))

            #expect(viewState.number == 3)
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.succeeded(3), at: .milliseconds(500))])
        }
    }

    @Test func repeatedFetchesRunOnTheClockWithoutRealWaiting() async throws {
        do {
            let clock = ManualClock()
            let client = RandomNumberClient(latency: .milliseconds(100), clock: clock, generator: SplitMix64(seed: 1))
            var expected = SplitMix64(seed: 1)
            let numbers = (0..<3).map { _ in Int.random(in: 1...100, using: &expected) }
            let recorder = try await HistoryRecorder.inMemory(source: RandomNumberClient.sourceName)
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)

            let run = Task { try await viewState.fetch(count: 3, interval: .seconds(1)) }
            try await clock.step(fetches: 3, latency: .milliseconds(100), interval: .seconds(1))
            let completed = try await withTimeout { try await run.value }

            #expect(completed.map(\.outcome) == numbers.map { .succeeded(FetchValue($0)) })
            #expect(viewState.number == numbers.last)
            #expect(try await recorder.timeline() == [
                .started(1, at: .zero), .ended(1, .succeeded(FetchValue(numbers[0])), at: .milliseconds(100)),
                .started(2, at: .milliseconds(1_100)), .ended(2, .succeeded(FetchValue(numbers[1])), at: .milliseconds(1_200)),
                .started(3, at: .milliseconds(2_200)), .ended(3, .succeeded(FetchValue(numbers[2])), at: .milliseconds(2_300)),
            ])
        }
    }

    @Test func aRunWaitsTheIntervalFromThePreviousFetchsEndNotItsStart() async throws {
        do {
            // Given a run of two fetches, 1 s apart, whose first answer takes 100 ms
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
            let run = Task { try await viewState.fetch(count: 2, interval: .seconds(1)) }
            try await client.waitUntilCalled()
            clock.advance(by: .milliseconds(100))
            await client.resume(returning: 1)

            // When the clock reaches 1 s after the first fetch's start, then 1 s after its end
            try await clock.waitUntilSleeping()
            clock.advance(to: .seconds(1))
            let stillWaitingAtOneSecond = clock.sleeperCount == 1
            clock.advance(to: .milliseconds(1_100))
            try await client.waitUntilCalled(times: 2)
            await client.resume(returning: 2)
            _ = try await withTimeout { try await run.value }

            // Then the second fetch started 1 s after the first one ended
            #expect(stillWaitingAtOneSecond)
            #expect(try await recorder.timeline() == [
                .started(1, at: .zero), .ended(1, .succeeded(1), at: .milliseconds(100)),
                .started(2, at: .milliseconds(1_100)), .ended(2, .succeeded(2), at: .milliseconds(1_100)),
            ])
        }
    }

    @Test func cancellingARunStopsItAndRecordsTheFetchInFlight() async throws {
        do {
            let client = APIClientStubWithCheckedContinuation()
            let clock = ManualClock()
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
            let run = Task { try await viewState.fetch(count: 5, interval: .seconds(1)) }
            try await client.waitUntilCalled()
            let first = try #require(viewState.fetchTask)
            await client.resume(returning: 1)
            // The first fetch ends at 0 only if it has taken its answer before the clock moves.
            _ = try await withTimeout { try await first.value }
            clock.advance(by: .seconds(1))
            try await client.waitUntilCalled(times: 2)

            run.cancel()
            let completed = try await withTimeout { try await run.value }

            #expect(completed.map(\.outcome) == [.succeeded(1), .cancelled(.user)])
            #expect(await client.callCount == 2)
            #expect(try await recorder.timeline() == [
                .started(1, at: .zero), .ended(1, .succeeded(1), at: .zero),
                .started(2, at: .seconds(1)), .ended(2, .cancelled(.user), at: .seconds(1)),
            ])
        }
    }

    @Test func aRecorderFailureIsShownAndTheSourceIsNotAsked() async throws {
        do {
            let client = APIClientStubWithTaskYield(returning: 1)
            let viewState = FetchViewState(client: client, recorder: FailingRecorder(), clock: ManualClock())

            await #expect(throws: FetchRecordingError.self) { try await viewState.fetch() }

            #expect(viewState.error?.contains("database or disk is full") == true)
            #expect(!viewState.isProcessing)
            #expect(await client.callCount == 0)
        }
    }

    @Test func theRandomSourceAnswersAfterItsLatencyAndHonoursCancellation() async throws {
        do {
            let clock = ManualClock()
            let client = RandomNumberClient(latency: .seconds(1), clock: clock)
            let answer = Task { try await client.fetchRandomNumber() }
            try await clock.waitUntilSleeping()
            clock.advance(by: .milliseconds(999))
            #expect(clock.sleeperCount == 1, "not answered before its latency")
            clock.advance(by: .milliseconds(1))
            let number = try await withTimeout { try await answer.value }
            #expect((1...100).contains(number))

            // Cancelled before or while it waits: either way it ends with CancellationError.
            let cancelled = Task { try await client.fetchRandomNumber() }
            cancelled.cancel()
            await #expect(throws: CancellationError.self) { try await cancelled.value }
        }
    }

    /// The scenarios above, many times over: ordering bugs between the
    /// fetch task, cancellation and recording show up as flaky mismatches.
    @Test func superseedAndCancelScenariosAreStableOverManyRuns() async throws {
        for iteration in 0..<500 {
            do {
                let client = APIClientStubWithCheckedContinuation()
                let clock = ManualClock()
                let recorder = try await HistoryRecorder.inMemory()
                let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(1))

                var tasks: [Task<CompletedFetch, any Error>] = []
                viewState.fetchButtonTapped()
                tasks.append(try #require(viewState.fetchTask))
                try await client.waitUntilCalled()
                clock.advance(by: .milliseconds(10))
                viewState.fetchButtonTapped()
                tasks.append(try #require(viewState.fetchTask))
                try await client.waitUntilCalled(times: 2)
                clock.advance(by: .milliseconds(10))
                viewState.cancelButtonTapped()
                viewState.fetchButtonTapped()
                tasks.append(try #require(viewState.fetchTask))
                try await client.waitUntilCalled(times: 3)
                clock.advance(by: .seconds(1))
                // Every fetch's end is recorded once its task is done: the
                // superseded one's too, which nothing else waits for.
                for task in tasks { _ = try await withTimeout { try await task.value } }

                let timeline = try await recorder.timeline()
                #expect(timeline == [
                    .started(1, at: .zero),
                    .ended(1, .cancelled(.superseded), at: .milliseconds(10)),
                    .started(2, at: .milliseconds(10)),
                    .ended(2, .cancelled(.user), at: .milliseconds(20)),
                    .started(3, at: .milliseconds(20)),
                    .ended(3, .timedOut, at: .milliseconds(1_020)),
                ], "iteration \(iteration)")
                #expect(viewState.error == "Fetch timed out after 1s")
            }
        }
    }
}
