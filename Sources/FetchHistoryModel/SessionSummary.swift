/// A session and how its fetches went: a row of `fetch-history sessions`.
public struct SessionSummary: Hashable, Sendable {
    public var session: Session
    /// Fetches per status; statuses with none are absent.
    public var counts: [FetchStatus: Int]

    public init(session: Session, counts: [FetchStatus: Int]) {
        self.session = session
        self.counts = counts
    }

    /// How many fetches the session holds.
    public var total: Int { counts.values.reduce(0, +) }
}
