import FetchHistory
import FoundationEssentials
import Synchronization

/// Records `fetch`'s fetches into the history and keeps each one as its
/// end left it, for the command to print: read back in the transaction
/// that wrote the end, not in a read of its own after it (a transaction
/// and its locks less per fetch).
final class ReadBackRecorder: FetchRecorder {
    let history: HistoryRecorder
    private let recorded = Mutex<[UUID: Fetch]>([:])

    init(_ history: HistoryRecorder) {
        self.history = history
    }

    var labels: RecordingLabels { history.labels }

    func record(_ start: FetchStart) async throws {
        try await history.record(start)
    }

    func record(_ end: FetchEnd) async throws {
        let fetch = try await history.recordReadingBack(end)
        recorded.withLock { $0[end.id] = fetch }
    }

    /// The fetch `id` as recorded, once its end is: handed over once.
    func takeRecorded(_ id: UUID) -> Fetch? {
        recorded.withLock { $0.removeValue(forKey: id) }
    }
}
