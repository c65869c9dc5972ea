import FoundationEssentials

/// Which fetches a query returns. Every field left nil matches all.
public struct HistoryFilter: Hashable, Sendable {
    public var status: FetchStatus?
    /// Exact source, e.g. `random`.
    public var source: String?
    /// Any of these exact sources (none: no fetch matches). What
    /// `Database.sources(matching:)` found for `sourceMatching`: a list of
    /// exact sources lets SQLite read one source's fetches in time order
    /// straight from `fetch_by_source`.
    public var sources: [String]?
    /// The source the way `--source` takes it (see `SourceMatch`): the exact
    /// source (`random`), a host or host:port (`127.0.0.1`,
    /// `example.com:8443`: every http or https URL there), or a URL prefix,
    /// any text containing `://` (`http://127.0.0.1:8080/v1/`). Also
    /// matches sources first recorded after the query started, which
    /// `sources` cannot: what a follower needs.
    public var sourceMatching: String?
    public var sessionID: UUID?
    /// Fetches started at or after this moment.
    public var since: Timestamp?
    /// Fetches started before this moment.
    public var until: Timestamp?
    /// Fetches whose error, source or value (as JSON text, an integer in
    /// decimal) contains this text, ignoring case (see `TextSearch`). Every
    /// character is literal: `%`, `_` and `\` have no special meaning.
    public var containing: String?
    /// Fetches recorded on a host `HostPattern` matches (`ci-*`).
    public var host: HostPattern?

    public init(
        status: FetchStatus? = nil, source: String? = nil, sessionID: UUID? = nil,
        since: Timestamp? = nil, until: Timestamp? = nil, containing: String? = nil,
        sources: [String]? = nil, sourceMatching: String? = nil, host: HostPattern? = nil
    ) {
        self.host = host
        self.status = status
        self.source = source
        self.sources = sources
        self.sourceMatching = sourceMatching
        self.sessionID = sessionID
        self.since = since
        self.until = until
        self.containing = containing
    }

    /// Matches every fetch.
    public static let all = HistoryFilter()
}
