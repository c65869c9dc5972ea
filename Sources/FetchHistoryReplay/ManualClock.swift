import FetchHistoryModel
import FetchHistoryViewState
import Synchronization

/// A clock that moves only when told to: a replay (or a test) advances it to
/// each moment of a script, waking the sleepers due by then, earliest first.
/// It stays where it was put, so the woken code reads that moment however
/// long it takes to run: advance to each moment the code should observe.
///
/// A sleeper whose deadline has already come when it starts sleeping wakes at
/// once: code that sleeps until a deadline fixed earlier (at a tap) is exact
/// however late its task gets to the sleep.
///
/// ```swift
/// let clock = ManualClock()
/// let nap = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil) }
/// clock.advance(to: .seconds(5))   // nap ends, at exactly 5 s
/// ```
///
/// In tests, `waitUntilSleeping()` (from FetchHistoryTesting) waits for the
/// code under test to be asleep on the clock before the test advances it.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        /// Time since the clock was created.
        public var offset: Duration

        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct SleeperWaiter {
        var id: Int
        var count: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var sleeperWaiters: [SleeperWaiter] = []
        var nextID = 0

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }

        /// The waiters whose count of sleepers is reached, taken out.
        mutating func satisfiedWaiters() -> [SleeperWaiter] {
            let count = sleepers.count
            defer { sleeperWaiters.removeAll { $0.count <= count } }
            return sleeperWaiters.filter { $0.count <= count }
        }
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Sleepers waiting for a later moment.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (wakeNow, waiters) = state.withLock { state -> (Bool, [SleeperWaiter]) in
                    guard deadline > state.now else { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, state.satisfiedWaiters())
                }
                if wakeNow { continuation.resume() }
                for waiter in waiters { waiter.continuation.resume() }
                // Cancelled before it was a sleeper, the handler found
                // nothing to wake: without this it would sleep until an advance.
                if !wakeNow, Task.isCancelled { wakeCancelled(id) }
            }
        } onCancel: {
            wakeCancelled(id)
        }
    }

    private func wakeCancelled(_ id: Int) {
        let sleeper = state.withLock { state -> Sleeper? in
            guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.sleepers.remove(at: index)
        }
        sleeper?.continuation.resume(throwing: CancellationError())
    }

    /// Moves the clock to `offset` (never back), waking every sleeper whose
    /// deadline has come, earliest first.
    public func advance(to offset: Duration) {
        while true {
            let due = state.withLock { state -> Sleeper? in
                let target = Instant(offset: offset)
                guard let index = state.sleepers.indices.filter({ state.sleepers[$0].deadline <= target })
                    .min(by: { state.sleepers[$0].deadline < state.sleepers[$1].deadline })
                else {
                    if target > state.now { state.now = target }
                    return nil
                }
                let sleeper = state.sleepers.remove(at: index)
                if sleeper.deadline > state.now { state.now = sleeper.deadline }
                return sleeper
            }
            guard let due else { return }
            due.continuation.resume()
        }
    }

    /// Moves the clock `duration` forward, waking every sleeper whose
    /// deadline has come, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now.offset + duration)
    }

    /// Returns once at least `count` sleepers are asleep on the clock; throws
    /// `CancellationError` if the waiting task is cancelled first. Bounded by
    /// FetchHistoryTesting's `waitUntilSleeping`.
    package func sleepersReach(_ count: Int) async throws {
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let reached = state.withLock { state -> Bool in
                    guard state.sleepers.count < count else { return true }
                    state.sleeperWaiters.append(SleeperWaiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if reached { continuation.resume() }
                else if Task.isCancelled { cancelWaiter(id) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    private func cancelWaiter(_ id: Int) {
        let waiter = state.withLock { state -> SleeperWaiter? in
            guard let index = state.sleeperWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.sleeperWaiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }
}
