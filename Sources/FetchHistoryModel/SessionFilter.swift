/// Which sessions `sessions` lists. Every field left nil matches all; the
/// fields that are set must all hold. A session's fetches are counted
/// whole whichever session matches.
///
/// ```swift
/// // The sessions CI hosts started since yesterday morning.
/// let filter = SessionFilter(since: Timestamp(iso8601: "2026-11-21T08:00:00Z"), host: HostPattern("ci-*"))
/// let summaries = try await history.sessionSummaries(matching: filter, limit: nil)
/// ```
public struct SessionFilter: Hashable, Sendable {
    /// Sessions started at or after this moment.
    public var since: Timestamp?
    /// Sessions started before this moment.
    public var until: Timestamp?
    /// The session's source, as `HistoryFilter.sourceMatching` takes it:
    /// the exact source, a host or host:port, or a URL prefix.
    public var sourceMatching: String?
    /// Sessions recorded on a host `HostPattern` matches (`ci-*`).
    public var host: HostPattern?
    /// Sessions with at least one fetch of any of these statuses
    /// (`sessions --outcome failed`); empty: no session matches.
    public var outcomes: Set<FetchStatus>?

    public init(
        since: Timestamp? = nil, until: Timestamp? = nil, sourceMatching: String? = nil, host: HostPattern? = nil,
        outcomes: Set<FetchStatus>? = nil
    ) {
        self.since = since
        self.until = until
        self.sourceMatching = sourceMatching
        self.host = host
        self.outcomes = outcomes
    }

    /// Matches every session.
    public static let all = SessionFilter()
}
