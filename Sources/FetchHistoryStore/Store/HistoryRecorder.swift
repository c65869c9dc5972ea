import FetchHistoryModel
import FoundationEssentials

/// Records a view state's fetches into a store, as one session. Each
/// transition is written before `record` returns, on the store's queue: the
/// caller's thread is never blocked.
///
/// ```swift
/// let store = try HistoryStore(path: path, access: .create)
/// let recorder = try await HistoryRecorder(store: store, source: "random")
/// let viewState = FetchViewState(client: RandomNumberClient(), recorder: recorder)
/// ```
public struct HistoryRecorder: FetchRecorder {
    public let store: HistoryStore
    public let session: Session

    /// Starts a new session in `store`.
    public init(
        store: HistoryStore, source: String, startedAt: Timestamp = .now, process: ProcessIdentity = .current
    ) async throws {
        self.store = store
        self.session = try await store.write { db in try db.beginSession(source: source, at: startedAt, process: process) }
    }

    /// Records into `session`, already begun in `store` with
    /// `Database.beginSession`: for a session begun in one transaction with
    /// other writes that belong to it.
    public init(store: HistoryStore, session: Session) {
        self.store = store
        self.session = session
    }

    /// The session's source, id and host.
    public var labels: RecordingLabels {
        RecordingLabels(source: session.source, sessionID: session.id, host: session.process.host)
    }

    public func record(_ start: FetchStart) async throws {
        let session = self.session
        try await store.write { db in
            try db.recordStart(
                of: start.id, in: session, at: session.startedAt.advanced(by: start.offset), timeout: start.timeout
            )
        }
    }

    public func record(_ end: FetchEnd) async throws {
        let session = self.session
        try await store.write { db in try Self.write(end, of: session, in: db) }
    }

    /// Records `end` as `record(_:)` does, and returns the fetch as the
    /// history now holds it, read in the same transaction: for a caller
    /// that shows each fetch as recorded, which would otherwise read it back
    /// in a transaction of its own.
    public func recordReadingBack(_ end: FetchEnd) async throws -> Fetch {
        let session = self.session
        return try await store.write { db in
            try Self.write(end, of: session, in: db)
            guard let fetch = try db.fetch(id: end.id) else { throw HistoryError.notRunning(end.id) }
            return fetch
        }
    }

    private static func write(_ end: FetchEnd, of session: Session, in db: Database) throws {
        try db.recordEnd(
            of: end.id, at: session.startedAt.advanced(by: end.offset), duration: end.duration,
            outcome: end.outcome, cause: end.cause, response: end.response
        )
    }
}
