import FoundationEssentials

/// Which fetches a query returns. Every field left nil matches all.
public struct HistoryFilter: Hashable, Sendable {
    public var status: FetchStatus?
    /// Exact source, e.g. `random`.
    public var source: String?
    public var sessionID: UUID?
    /// Fetches started at or after this moment.
    public var since: Timestamp?
    /// Fetches started before this moment.
    public var until: Timestamp?

    public init(
        status: FetchStatus? = nil, source: String? = nil, sessionID: UUID? = nil,
        since: Timestamp? = nil, until: Timestamp? = nil
    ) {
        self.status = status
        self.source = source
        self.sessionID = sessionID
        self.since = since
        self.until = until
    }

    /// Matches every fetch.
    public static let all = HistoryFilter()
}
