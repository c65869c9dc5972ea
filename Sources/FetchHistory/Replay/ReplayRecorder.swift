import FoundationEssentials
import Synchronization

/// Collects what a replayed view state reports, in order, in memory.
final class ReplayRecorder: FetchRecorder {
    private let state = Mutex<(starts: [FetchStart], ends: [UUID: FetchEnd])>(([], [:]))

    func record(_ start: FetchStart) {
        state.withLock { $0.starts.append(start) }
    }

    func record(_ end: FetchEnd) {
        state.withLock { $0.ends[end.id] = end }
    }

    var startCount: Int { state.withLock { $0.starts.count } }

    /// Whether the `number`th fetch started (1-based) has ended.
    func hasEnded(_ number: Int) -> Bool {
        state.withLock { state in
            number <= state.starts.count && state.ends[state.starts[number - 1].id] != nil
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
