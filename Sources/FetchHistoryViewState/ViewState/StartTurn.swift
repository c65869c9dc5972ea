import FetchHistoryModel
import Synchronization

/// Done once a fetch's start is written: the fetch tapped after it waits for
/// this before writing its own, so that the history has fetches tapped in one
/// millisecond in the order of their taps. (Two taps start two tasks, and
/// either may reach the store first; the history orders one millisecond's
/// fetches by the order their starts were written.)
final class StartTurn: Sendable {
    private let state = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits until `finish()`. Not cancellable: a cancelled fetch still
    /// records its start.
    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }

    func finish() {
        let waiters = state.withLock { state in
            defer { state = (true, []) }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
