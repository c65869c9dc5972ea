/// What `Database.deleteFetches(_:)` deleted, or, from
/// `Database.fetchesToDelete(_:)`, would delete.
public struct RetentionSummary: Hashable, Sendable {
    /// Fetches deleted.
    public var fetches: Int
    /// Sessions deleted because they were left with no fetch.
    public var sessions: Int
    /// The earliest and latest start among the deleted fetches; nil when none.
    public var oldest: Timestamp?
    public var newest: Timestamp?
    /// Fetches the rule selected but that are still running in a live
    /// process, and so were kept.
    public var keptRunning: Int

    public init(fetches: Int, sessions: Int, oldest: Timestamp?, newest: Timestamp?, keptRunning: Int) {
        self.fetches = fetches
        self.sessions = sessions
        self.oldest = oldest
        self.newest = newest
        self.keptRunning = keptRunning
    }
}
