import Synchronization

/// Holds each call until the test answers it, so a test can look at a view
/// state while its fetch is in flight, and decide when and how it ends.
///
/// Put it behind your own client protocol:
///
/// ```swift
/// actor UserAPIStub: UserAPI {
///     let stub = ContinuationStub<Int, User>()
///     func user(id: Int) async throws -> User { try await stub.call(id) }
/// }
///
/// viewState.loadButtonTapped()
/// try await api.stub.waitUntilCalled()
/// #expect(await api.stub.arguments == [7])
/// await api.stub.resume(returning: User(id: 7, name: "Ada"))
/// ```
///
/// Calls are numbered from 1 in the order they were made, cancelled ones
/// included. `resume(returning:)` answers the newest call still waiting
/// (what a screen that supersedes older fetches cares about);
/// `resume(call:returning:)` answers a given one. Each call is answered at
/// most once.
///
/// With `honoursCancellation` (the default) a cancelled call ends at once with
/// `CancellationError`, as a well-behaved client does. Without it, a cancelled
/// call keeps waiting and its caller gets whatever the test answers: the way
/// to test a late answer reaching a view state that has moved on.
public actor ContinuationStub<Argument: Sendable, Value: Sendable> {
    private let calls: CallBook<Argument, Value>

    /// - Parameter honoursCancellation: false keeps a cancelled call waiting
    ///   for the test's answer.
    public init(honoursCancellation: Bool = true) {
        calls = CallBook(honoursCancellation: honoursCancellation)
    }

    /// Waits until the test answers this call. The call counts as made (and
    /// is pending) before the caller suspends.
    public func call(_ argument: Argument) async throws -> Value {
        try await calls.call(argument)
    }

    /// How many calls were made, cancelled ones included.
    public var callCount: Int { calls.snapshot.arguments.count }

    /// How many calls are waiting for an answer.
    public var pendingCount: Int { calls.snapshot.pending }

    /// Every call's argument, in call order.
    public var arguments: [Argument] { calls.snapshot.arguments }

    /// Answers the newest call still waiting with `value`. Returns false when
    /// no call is waiting.
    @discardableResult
    public func resume(returning value: Value) -> Bool {
        calls.resumeNewest(with: .success(value))
    }

    /// Fails the newest call still waiting with `error`. Returns false when no
    /// call is waiting.
    @discardableResult
    public func resume(throwing error: any Error) -> Bool {
        calls.resumeNewest(with: .failure(error))
    }

    /// Answers call number `call` (1 for the first) with `value`. Returns
    /// false for a call already answered, cancelled, or never made.
    @discardableResult
    public func resume(call: Int, returning value: Value) -> Bool {
        calls.resume(call, with: .success(value))
    }

    /// Fails call number `call` (1 for the first) with `error`. Returns false
    /// for a call already answered, cancelled, or never made.
    @discardableResult
    public func resume(call: Int, throwing error: any Error) -> Bool {
        calls.resume(call, with: .failure(error))
    }

    /// Waits until `times` calls have been made in all; the last of them is
    /// then pending (unless it was cancelled) and can be resumed. Throws
    /// `TimeoutError` after `limit` of real time.
    public func waitUntilCalled(times: Int = 1, limit: Duration = TimeoutError.defaultLimit) async throws {
        let calls = self.calls
        try await withTimeout(limit) { try await calls.waitForCalls(times) }
    }
}

extension ContinuationStub where Argument == Void {
    /// Waits until the test answers this call.
    public func call() async throws -> Value {
        try await call(())
    }
}

/// The calls of a `ContinuationStub`, behind a lock rather than the actor, so
/// that a cancellation handler, which runs synchronously in the cancelling
/// thread, ends a cancelled call before `cancel()` returns: a test reading
/// `pendingCount` right after cancelling sees it gone.
final class CallBook<Argument: Sendable, Value: Sendable>: Sendable {
    private struct Waiting {
        var call: Int
        var continuation: CheckedContinuation<Value, any Error>
    }

    private struct CountWaiter {
        var id: Int
        var count: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var arguments: [Argument] = []
        var waiting: [Waiting] = []
        /// Calls whose continuation is stored: numbered calls not yet stored
        /// cannot be resumed, so waiters count these.
        var stored = 0
        var countWaiters: [CountWaiter] = []
        var nextWaiterID = 0
    }

    private let honoursCancellation: Bool
    private let state = Mutex(State())

    init(honoursCancellation: Bool) {
        self.honoursCancellation = honoursCancellation
    }

    var snapshot: (arguments: [Argument], pending: Int) {
        state.withLock { ($0.arguments, $0.waiting.count) }
    }

    func call(_ argument: Argument) async throws -> Value {
        let number = self.number(argument)
        guard honoursCancellation else {
            return try await withCheckedThrowingContinuation { store(number, $0) }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                store(number, continuation)
                // Cancelled before the continuation was stored: the handler
                // found nothing to end, so end the call here.
                if Task.isCancelled { _ = resume(number, with: .failure(CancellationError())) }
            }
        } onCancel: {
            _ = resume(number, with: .failure(CancellationError()))
        }
    }

    /// The call's number, given under the lock, so concurrent calls get
    /// distinct ones. Until its continuation is stored the call is counted
    /// but not pending: it cannot be resumed yet.
    func number(_ argument: Argument) -> Int {
        state.withLock { state in
            state.arguments.append(argument)
            return state.arguments.count
        }
    }

    /// Stores a call's continuation, then lets go of everyone waiting for
    /// that many calls: only now is the call pending.
    private func store(_ number: Int, _ continuation: CheckedContinuation<Value, any Error>) {
        let ready = state.withLock { state -> [CountWaiter] in
            state.waiting.append(Waiting(call: number, continuation: continuation))
            state.stored += 1
            let stored = state.stored
            let ready = state.countWaiters.filter { $0.count <= stored }
            state.countWaiters.removeAll { $0.count <= stored }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    func resumeNewest(with result: Result<Value, any Error>) -> Bool {
        let newest = state.withLock { state -> Waiting? in
            guard let index = state.waiting.indices.max(by: { state.waiting[$0].call < state.waiting[$1].call })
            else { return nil }
            return state.waiting.remove(at: index)
        }
        newest?.continuation.resume(with: result)
        return newest != nil
    }

    func resume(_ call: Int, with result: Result<Value, any Error>) -> Bool {
        let waiting = state.withLock { state -> Waiting? in
            guard let index = state.waiting.firstIndex(where: { $0.call == call }) else { return nil }
            return state.waiting.remove(at: index)
        }
        waiting?.continuation.resume(with: result)
        return waiting != nil
    }

    /// Returns once `count` calls have been made and stored; throws
    /// `CancellationError` if the waiting task is cancelled first.
    func waitForCalls(_ count: Int) async throws {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let done = state.withLock { state -> Bool in
                    guard state.stored < count else { return true }
                    state.countWaiters.append(CountWaiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if done { continuation.resume() }
                else if Task.isCancelled { cancelWaiter(id) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    private func cancelWaiter(_ id: Int) {
        let waiter = state.withLock { state -> CountWaiter? in
            guard let index = state.countWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.countWaiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }
}
