import ExampleViewStates
import FetchHistoryTesting
import Testing

@MainActor
@Suite struct UserViewStateTests {
    let ada = User(id: 7, name: "Ada")

    @Test func aSlowLoadShowsTheHintThenTheUserOnVirtualTime() async throws {
        // Given a user source the test answers, on a clock the test moves
        let api = ContinuationStub<Int, User>()
        let clock = ManualClock()
        let viewState = UserViewState(api: api, clock: clock, slowAfter: .seconds(2))
        let phases = StateRecorder(clock: clock) { viewState.phase }

        // When user 7 is loaded, and the source takes 2.5 s to answer
        viewState.load(id: 7)
        try await api.waitUntilCalled()
        try await clock.waitUntilSleeping()      // the slow hint waits for its deadline
        clock.advance(by: .seconds(2))
        #expect(try await phases.next() == .idle)
        #expect(try await phases.next() == .loading)
        #expect(try await phases.next() == .slow)
        clock.advance(by: .milliseconds(500))
        await api.resume(returning: ada)
        #expect(try await phases.next() == .loaded(ada))

        // Then the whole timeline, at the moments the screen changed
        #expect(await api.arguments == [7])
        #expect(phases.events == [
            .next(.zero, .idle),
            .next(.zero, .loading),
            .next(.seconds(2), .slow),
            .next(.milliseconds(2_500), .loaded(ada)),
        ])
        phases.expectNoMoreChanges()
    }

    @Test func aFastLoadNeverShowsTheHint() async throws {
        let api = ContinuationStub<Int, User>()
        let clock = ManualClock()
        let viewState = UserViewState(api: api, clock: clock, slowAfter: .seconds(2))
        let phases = StateRecorder(clock: clock) { viewState.phase }

        viewState.load(id: 7)
        try await api.waitUntilCalled()
        try await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(300))
        await api.resume(returning: ada)
        _ = try await withTimeout { await viewState.task?.value }
        clock.advance(by: .seconds(5))

        #expect(phases.events.map(\.state) == [.idle, .loading, .loaded(ada)])
        #expect(phases.events.last?.offset == .milliseconds(300))
        #expect(clock.sleeperCount == 0, "the hint was cancelled with the load")
    }

    @Test func aNewerLoadSupersedesTheOlderOne() async throws {
        let api = ContinuationStub<Int, User>()
        let viewState = UserViewState(api: api, clock: ManualClock())

        viewState.load(id: 1)
        try await api.waitUntilCalled()
        viewState.load(id: 7)
        try await api.waitUntilCalled(times: 2)
        await api.resume(returning: ada)
        _ = try await withTimeout { await viewState.task?.value }

        #expect(viewState.phase == .loaded(ada))
        #expect(await api.arguments == [1, 7])
        #expect(await api.pendingCount == 0, "the older call was cancelled")
    }

    @Test func anOlderLoadThatAnswersAnywayNeverOverwritesTheNewerOne() async throws {
        // Given a source that keeps answering calls after they were cancelled, as a real one may
        let api = ContinuationStub<Int, User>(honoursCancellation: false)
        let clock = ManualClock()
        let viewState = UserViewState(api: api, clock: clock, slowAfter: .seconds(2))
        let phases = StateRecorder(clock: clock) { viewState.phase }

        // When user 1 is loaded, then user 7 a second later
        viewState.load(id: 1)
        try await api.waitUntilCalled()
        let older = viewState.task
        clock.advance(by: .seconds(1))
        viewState.load(id: 7)
        try await api.waitUntilCalled(times: 2)

        // And the first load's hint deadline (2 s) passes, then its answer comes, late
        clock.advance(by: .seconds(1))
        #expect(await api.resume(call: 1, returning: User(id: 1, name: "Old")))
        _ = try await withTimeout { await older?.value }

        // Then the screen is still the newer load's: no hint at 2 s, no old user
        #expect(viewState.phase == .loading)
        #expect(try await phases.next() == .idle)
        #expect(try await phases.next() == .loading)
        // And the newer load's own hint comes at 3 s, then its user
        try await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        #expect(try await phases.next() == .slow)
        #expect(await api.resume(call: 2, returning: ada))
        #expect(try await phases.next() == .loaded(ada))
        #expect(phases.events.map(\.offset) == [.zero, .zero, .seconds(3), .seconds(3)])
        phases.expectNoMoreChanges()
    }

    @Test func anAnswerAfterCancelLeavesTheScreenIdle() async throws {
        // Given a load whose source keeps answering after it was cancelled
        let api = ContinuationStub<Int, User>(honoursCancellation: false)
        let viewState = UserViewState(api: api, clock: ManualClock())
        viewState.load(id: 7)
        try await api.waitUntilCalled()
        let load = viewState.task

        // When the user cancels, and the answer comes anyway
        viewState.cancelButtonTapped()
        #expect(await api.resume(returning: ada))
        _ = try await withTimeout { await load?.value }

        // Then the screen stays as cancel left it
        #expect(viewState.phase == .idle)
    }

    @Test func aFailureNamesTheUser() async throws {
        let api = ContinuationStub<Int, User>()
        let viewState = UserViewState(api: api, clock: ManualClock())
        viewState.load(id: 3)
        try await api.waitUntilCalled()

        await api.resume(throwing: ServerDown())
        _ = try await withTimeout { await viewState.task?.value }

        #expect(viewState.phase == .failed("Could not load user 3"))
    }
}
