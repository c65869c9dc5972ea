import ExampleViewStates
import FetchHistoryTesting
import Testing

@MainActor
@Suite struct SecondViewStateTests {
    /// What the screen shows: the part of the view state a test asserts on.
    struct Screen: Equatable, Sendable {
        var number: Int?
        var isProcessing = false
        var error: String?
    }

    static func screen(_ viewState: SecondViewState) -> Screen {
        Screen(number: viewState.number, isProcessing: viewState.isProcessing, error: viewState.error)
    }

    @Test func showsTheFetchInFlightThenTheNumber() async throws {
        // Given a source the test answers, and the screen recorded
        let api = ContinuationStub<Void, Int>()
        let viewState = SecondViewState(api: api)
        let screen = StateRecorder { Self.screen(viewState) }
        #expect(try await screen.next() == Screen())

        // When fetch is tapped
        viewState.fetchButtonTapped()

        // Then the screen shows it in flight (set inside the view state's Task)
        #expect(try await screen.next() == Screen(isProcessing: true))

        // When the source answers, the number is shown
        try await api.waitUntilCalled()
        await api.resume(returning: 42)
        #expect(try await screen.next() == Screen(number: 42))
        screen.expectNoMoreChanges()
    }

    @Test func cancelStopsTheFetchAndSaysSo() async throws {
        let api = ContinuationStub<Void, Int>()
        let viewState = SecondViewState(api: api)
        let screen = StateRecorder { Self.screen(viewState) }
        _ = try await screen.next()
        viewState.fetchButtonTapped()
        #expect(try await screen.next() == Screen(isProcessing: true))
        try await api.waitUntilCalled()

        viewState.cancelButtonTapped()

        #expect(try await screen.next() == Screen(error: "Cancelled"))
        #expect(await api.pendingCount == 0, "the source saw the cancellation")
        screen.expectNoMoreChanges()
    }

    @Test func aFailureIsShown() async throws {
        let api = ContinuationStub<Void, Int>()
        let viewState = SecondViewState(api: api)
        let screen = StateRecorder { Self.screen(viewState) }
        _ = try await screen.next()
        viewState.fetchButtonTapped()
        _ = try await screen.next()
        try await api.waitUntilCalled()

        await api.resume(throwing: ServerDown())

        #expect(try await screen.next() == Screen(error: "Could not fetch a number"))
        screen.expectNoMoreChanges()
    }

    @Test func aYieldingSourceStillShowsTheFetchInFlight() async throws {
        let viewState = SecondViewState(api: YieldingStub<Void, Int>(returning: 5))
        let screen = StateRecorder { Self.screen(viewState) }

        viewState.fetchButtonTapped()

        #expect(try await screen.next() == Screen())
        #expect(try await screen.next() == Screen(isProcessing: true))
        #expect(try await screen.next() == Screen(number: 5))
        screen.expectNoMoreChanges()
    }

    /// The article's pattern (tap, `await Task.yield()`, expect
    /// `isProcessing`) fails hundreds of times in 1000 on Swift 6.3 on Linux,
    /// where `withMainSerialExecutor` no longer serializes. Waiting for
    /// recorded states and stub calls does not depend on the scheduler.
    @Test func everyRoundOfAThousandSeesTheSameScreens() async throws {
        for round in 1...1000 {
            let api = ContinuationStub<Void, Int>()
            let viewState = SecondViewState(api: api)
            let screen = StateRecorder { Self.screen(viewState) }

            viewState.fetchButtonTapped()
            let shown = [try await screen.next(), try await screen.next()]
            try await api.waitUntilCalled()
            await api.resume(returning: round)
            let answered = try await screen.next()

            #expect(shown == [Screen(), Screen(isProcessing: true)], "round \(round)")
            #expect(answered == Screen(number: round), "round \(round)")
            screen.expectNoMoreChanges()
        }
    }
}
