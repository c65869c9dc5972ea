import FoundationEssentials

/// Which fetches a query returns. Every field left nil matches all; the
/// fields that are set must all hold.
///
/// ```swift
/// // The failed and timed-out fetches of the last day that got a 5xx or took 2s or more.
/// var filter = HistoryFilter(since: Timestamp.now.advanced(by: .seconds(-86_400)))
/// filter.statuses = [.failed, .timedOut]
/// filter.httpStatuses = [HTTPStatusPattern("5xx")!]
/// filter.minimumDuration = .seconds(2)
/// ```
public struct HistoryFilter: Hashable, Sendable {
    public var status: FetchStatus?
    /// Fetches whose status is any of these (empty: no fetch matches), as
    /// `--outcome failed,timed-out` asks. With `status` also set, a fetch
    /// must have that one too.
    public var statuses: Set<FetchStatus>?
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
    /// Fetches whose HTTP status any of these matches (`--status 404,5xx`;
    /// empty: no fetch matches). A fetch with no HTTP status — from the
    /// random source, or failed before a server answered — never matches.
    public var httpStatuses: [HTTPStatusPattern]?
    /// Fetches that ended and took at least this long (`--min-duration`).
    /// A fetch still running, or interrupted, has no duration and never matches.
    public var minimumDuration: Duration?
    /// Fetches that ended and took at most this long (`--max-duration`).
    /// A fetch still running, or interrupted, has no duration and never matches.
    public var maximumDuration: Duration?
    /// Fetches whose problem (`Problem`: `HTTP 503`, `timed out`, an error
    /// with what varies masked) is any of these keys (`--problem`; empty: no
    /// fetch matches). A fetch that succeeded or is running has none.
    public var problems: [String]?

    public init(
        status: FetchStatus? = nil, source: String? = nil, sessionID: UUID? = nil,
        since: Timestamp? = nil, until: Timestamp? = nil, containing: String? = nil,
        sources: [String]? = nil, sourceMatching: String? = nil, host: HostPattern? = nil,
        statuses: Set<FetchStatus>? = nil, httpStatuses: [HTTPStatusPattern]? = nil,
        minimumDuration: Duration? = nil, maximumDuration: Duration? = nil, problems: [String]? = nil
    ) {
        self.host = host
        self.status = status
        self.statuses = statuses
        self.source = source
        self.sources = sources
        self.sourceMatching = sourceMatching
        self.sessionID = sessionID
        self.since = since
        self.until = until
        self.containing = containing
        self.httpStatuses = httpStatuses
        self.minimumDuration = minimumDuration
        self.maximumDuration = maximumDuration
        self.problems = problems
    }

    /// Matches every fetch.
    public static let all = HistoryFilter()

    /// The statuses a fetch may have to match, `status` and `statuses`
    /// together, in `FetchStatus.allCases` order (so that the same filter
    /// always makes the same SQL); nil when neither is set.
    package var acceptedStatuses: [FetchStatus]? {
        guard status != nil || statuses != nil else { return nil }
        return FetchStatus.allCases.filter { status in
            (self.status.map { $0 == status } ?? true) && (statuses.map { $0.contains(status) } ?? true)
        }
    }

    /// Whether a fetch of `status` may match: false when `status` and
    /// `statuses` leave it out.
    package func accepts(_ status: FetchStatus) -> Bool {
        acceptedStatuses?.contains(status) ?? true
    }

    /// `minimumDuration` and `maximumDuration` in whole milliseconds, as
    /// durations are stored: the least rounded up, the most rounded down.
    package var durationBoundsMilliseconds: (least: Int64?, most: Int64?) {
        let least = minimumDuration.map { duration in
            let whole = duration.wholeMilliseconds
            return Duration.milliseconds(whole) < duration ? whole + 1 : whole
        }
        return (least, maximumDuration?.wholeMilliseconds)
    }
}
