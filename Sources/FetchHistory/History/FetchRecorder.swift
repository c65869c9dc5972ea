import Foundation

/// Where a view state reports each fetch's transitions, as they happen.
///
/// Times are offsets on the view state's injected clock since the view state
/// was created, so a test clock gives exact, repeatable times.
/// `HistoryRecorder` writes them to a `HistoryStore`; tests may pass a spy.
public protocol FetchRecorder: Sendable {
    /// A fetch started; called before the source is asked.
    func recordStart(of fetch: UUID, at offset: Duration) async throws
    /// A fetch ended after running for `duration`, measured on the clock;
    /// `response` is what an HTTP source said (status, size), if anything.
    func recordEnd(
        of fetch: UUID, at offset: Duration, duration: Duration, outcome: FetchOutcome, response: SourceResponse?
    ) async throws
}

/// Records a view state's fetches into a store, as one session.
///
/// ```swift
/// let store = try HistoryStore(path: path, access: .create)
/// let recorder = try HistoryRecorder(store: store, source: "random")
/// let viewState = FetchViewState(client: RandomNumberClient(), recorder: recorder)
/// ```
public struct HistoryRecorder: FetchRecorder {
    public let store: HistoryStore
    public let session: Session

    /// Starts a new session in `store`.
    public init(
        store: HistoryStore, source: String, startedAt: Timestamp = .now, process: ProcessIdentity = .current
    ) throws {
        self.store = store
        self.session = try store.beginSession(source: source, at: startedAt, process: process)
    }

    public func recordStart(of fetch: UUID, at offset: Duration) throws {
        try store.recordStart(of: fetch, in: session, at: session.startedAt.advanced(by: offset))
    }

    public func recordEnd(
        of fetch: UUID, at offset: Duration, duration: Duration, outcome: FetchOutcome, response: SourceResponse?
    ) throws {
        try store.recordEnd(
            of: fetch, at: session.startedAt.advanced(by: offset), duration: duration, outcome: outcome,
            response: response
        )
    }
}
