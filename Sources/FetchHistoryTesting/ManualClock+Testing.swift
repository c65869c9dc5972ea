import FetchHistory

extension ManualClock {
    /// Waits until at least `count` sleepers are asleep on the clock, so the
    /// test advances it only once the code under test is waiting on it.
    /// Throws `TimeoutError` after `limit` of real time.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let viewState = UserViewState(api: api, clock: clock)
    /// viewState.load(id: 7)
    /// try await clock.waitUntilSleeping()   // the "slow network" hint is waiting
    /// clock.advance(by: .seconds(2))        // it fires, at exactly 2 s
    /// ```
    public func waitUntilSleeping(_ count: Int = 1, limit: Duration = TimeoutError.defaultLimit) async throws {
        try await withTimeout(limit) { try await self.sleepersReach(count) }
    }
}
