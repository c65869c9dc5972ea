import ExampleViewStates
import FetchHistoryTesting
import Testing

@MainActor
@Suite struct FirstViewStateTests {
    struct Screen: Equatable, Sendable {
        var number: Int?
        var isProcessing = false
    }

    @Test func showsTheFetchInFlightThenTheNumber() async throws {
        // Given a source that answers when the test says so
        let api = ContinuationStub<Void, Int>()
        let viewState = FirstViewState(api: api)

        // When the fetch is awaited, and the source has been asked
        let fetch = Task { await viewState.fetchButtonTapped() }
        try await api.waitUntilCalled()

        // Then the screen shows it in flight
        #expect(viewState.isProcessing)
        #expect(viewState.number == nil)

        // When the source answers
        await api.resume(returning: 42)
        try await withTimeout { await fetch.value }

        // Then the number is shown
        #expect(viewState.number == 42)
        #expect(!viewState.isProcessing)
        #expect(viewState.error == nil)
    }

    @Test func theScreensTimelineOnATestClock() async throws {
        // Given swift-clocks' TestClock (it comes with the kit) stamping each screen
        let api = ContinuationStub<Void, Int>()
        let clock = TestClock()
        let viewState = FirstViewState(api: api)
        let screen = StateRecorder(clock: clock) { Screen(number: viewState.number, isProcessing: viewState.isProcessing) }

        // When the source answers 150 ms after the tap
        let fetch = Task { await viewState.fetchButtonTapped() }
        try await api.waitUntilCalled()
        await clock.advance(by: .milliseconds(150))
        await api.resume(returning: 42)
        try await withTimeout { await fetch.value }
        _ = [try await screen.next(), try await screen.next(), try await screen.next()]

        // Then the timeline shows each screen at its moment
        #expect(screen.events == [
            .next(.zero, Screen()),
            .next(.zero, Screen(isProcessing: true)),
            .next(.milliseconds(150), Screen(number: 42)),
        ])
        screen.expectNoMoreChanges()
    }

    @Test func aFailureIsShown() async throws {
        let api = ContinuationStub<Void, Int>()
        let viewState = FirstViewState(api: api)
        let fetch = Task { await viewState.fetchButtonTapped() }
        try await api.waitUntilCalled()

        await api.resume(throwing: ServerDown())
        try await withTimeout { await fetch.value }

        #expect(viewState.error == "Could not fetch a number")
        #expect(!viewState.isProcessing)
    }

    @Test func aYieldingSourceIsSimplyAwaited() async throws {
        let api = YieldingStub<Void, Int>(returning: 7)
        let viewState = FirstViewState(api: api)

        await viewState.fetchButtonTapped()

        #expect(viewState.number == 7)
        #expect(await api.callCount == 1)
    }
}
