import FetchHistoryModel
import FetchHistoryViewState
import FoundationEssentials
import Synchronization

/// Collects what a replayed view state reports, in order, in memory, and
/// lets the replay wait for the n-th start.
final class ReplayRecorder: FetchRecorder {
    private struct State {
        var starts: [FetchStart] = []
        var ends: [UUID: FetchEnd] = [:]
        var startWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    func record(_ start: FetchStart) {
        let ready = state.withLock { state in
            state.starts.append(start)
            let count = state.starts.count
            defer { state.startWaiters.removeAll { $0.count <= count } }
            return state.startWaiters.filter { $0.count <= count }
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    func record(_ end: FetchEnd) {
        state.withLock { $0.ends[end.id] = end }
    }

    var startCount: Int { state.withLock { $0.starts.count } }

    /// Returns once `count` fetches have started. The replay bounds the wait.
    func waitForStarts(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let started = state.withLock { state -> Bool in
                guard state.starts.count < count else { return true }
                state.startWaiters.append((count, continuation))
                return false
            }
            if started { continuation.resume() }
        }
    }

    /// The fetches in start order, as offsets.
    var fetches: [ReplayedFetch] {
        state.withLock { state in
            state.starts.map { start in
                let end = state.ends[start.id]
                return ReplayedFetch(start: start.offset, end: end?.offset, outcome: end?.outcome)
            }
        }
    }
}

/// A fetch as offsets from the session's start: what a replay compares.
struct ReplayedFetch: Equatable {
    var start: Duration
    var end: Duration?
    var outcome: FetchOutcome?
}
