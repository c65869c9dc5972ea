import FetchHistoryModel
import Synchronization

/// Runs `operation`, failing with `TimeoutError` once `limit` of real time has
/// passed: a bound on an awaited step, so a broken test (or a replay that
/// does not reproduce its recording) fails instead of hanging. It is not a
/// way to wait for things to settle.
///
/// The first of the two to finish wins; the loser is cancelled. Unlike a task
/// group, this returns at the limit even if `operation` ignores cancellation.
///
/// ```swift
/// let value = try await withTimeout(.seconds(5)) { try await viewState.fetchTask?.value }
/// ```
public func withTimeout<T: Sendable>(
    _ limit: Duration = TimeoutError.defaultLimit,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> T
) async throws -> T {
    let work = Task(operation: operation)
    let race = FirstResult<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.arm(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                // The operation is cancelled before the caller resumes, so
                // the caller never sees it still running.
                race.finish(with: .failure(TimeoutError(limit: limit)), cancellingLoser: work.cancel)
            }
            Task {
                race.finish(with: await work.result, cancellingLoser: timer.cancel)
            }
        }
    } onCancel: {
        work.cancel()
    }
}

/// A continuation that only the first of several racers resumes.
private final class FirstResult<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, result: Result<T, any Error>?)>((nil, nil))

    func arm(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let early { continuation.resume(with: early) }
    }

    /// Ends the race with `result` if nobody has yet: calls `cancellingLoser`,
    /// then resumes the waiting caller.
    func finish(with result: Result<T, any Error>, cancellingLoser: () -> Void) {
        let (won, continuation) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        guard won else { return }
        cancellingLoser()
        continuation?.resume(with: result)
    }
}
