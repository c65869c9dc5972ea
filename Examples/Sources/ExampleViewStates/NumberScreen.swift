import FetchHistory

/// A screen of the app built on the library's own view state: it fetches
/// numbers and records every fetch, cancellation and timeout into a history
/// file the `fetch-history` command reads.
@MainActor
public final class NumberScreen {
    public let viewState: FetchViewState<Int>
    public let store: HistoryStore

    public init(
        historyAt path: String,
        client: any APIClient = RandomNumberClient(),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws {
        store = try HistoryStore(path: path, access: .create)
        let recorder = try await HistoryRecorder(store: store, source: RandomNumberClient.sourceName)
        viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(5))
    }

    /// The last 20 fetches that failed, newest first, read without
    /// blocking the screen.
    public func recentFailures() async throws -> [Fetch] {
        try await store.read { db in try db.fetches(matching: HistoryFilter(status: .failed), limit: 20) }
    }
}
