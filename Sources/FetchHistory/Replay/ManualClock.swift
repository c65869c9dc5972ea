import Synchronization

/// A clock that moves only when told to: a replay (or a test) advances it to
/// each moment of a script, and sleepers wake in deadline order, each seeing
/// `now` at its own deadline.
///
/// ```swift
/// let clock = ManualClock()
/// let nap = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil) }
/// clock.advance(to: .seconds(5))   // nap ends, at exactly 5 s
/// ```
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

    private let state = Mutex<(now: Instant, sleepers: [Sleeper], nextID: Int)>((Instant(offset: .zero), [], 0))

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Sleepers waiting for a later moment.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wakeNow = state.withLock { state -> Bool in
                    guard deadline > state.now else { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if wakeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
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
}
