import ExampleViewStates
import FetchHistoryTesting
import Testing

@MainActor
@Suite struct FirstViewStateTests {
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
