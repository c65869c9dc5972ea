import FoundationEssentials

/// What the reading commands need from a history, whatever holds it: the
/// seam between the commands and a store. `HistoryStore` (a SQLite file)
/// fills it; a history on a server fills it with the same values and the
/// same orders, behind the same `async` calls. Nothing here names a
/// storage type: filters, fetches, sessions and summaries are values.
///
/// Every call is one consistent read. A caller that needs two answers of
/// one moment asks for both in one call (`listing(matching:limit:)`).
public protocol HistoryReader: Sendable {
    /// Fetches matching `filter`, newest first (those of one millisecond in
    /// reverse recording order); at most `limit` when given.
    func fetches(matching filter: HistoryFilter, limit: Int?) async throws -> [Fetch]

    /// The newest `limit` fetches matching `filter`, as `fetches` gives them,
    /// and a cursor at the same moment, from which `fetchesEnded(after:…)`
    /// gives each fetch that ends later exactly once (`list --follow`).
    func listing(matching filter: HistoryFilter, limit: Int?) async throws -> HistoryListing

    /// The fetches that ended since `cursor`, oldest first, matching
    /// `filter`; moves `cursor` past them.
    func fetchesEnded(after cursor: inout HistoryCursor, matching filter: HistoryFilter) async throws -> [Fetch]

    /// Calls `body` with each fetch matching `filter`, oldest first (ties in
    /// recording order), one at a time as they are read, never holding them
    /// all (`export`). `body` runs where the store reads, not on the
    /// caller's thread; what it throws ends the read and is rethrown.
    func forEachFetch(matching filter: HistoryFilter, _ body: @escaping @Sendable (Fetch) throws -> Void) async throws

    /// The fetch whose id is `prefix` or starts with it; an unknown or
    /// ambiguous prefix throws.
    func fetch(idPrefix prefix: String) async throws -> Fetch

    /// The session whose id is `prefix` or starts with it.
    func session(idPrefix prefix: String) async throws -> Session

    /// The sessions, newest first, with their counts; at most `limit`.
    func sessionSummaries(limit: Int?) async throws -> [SessionSummary]

    /// Counts, latencies and rates of the fetches matching `filter`.
    func statistics(matching filter: HistoryFilter) async throws -> HistoryStatistics

    /// The same, one group per value of `grouping`.
    func statistics(matching filter: HistoryFilter, by grouping: StatisticsGrouping) async throws -> [StatisticsGroup]

    /// What `HistoryWriter.deleteFetches(rule)` would delete now, deleting nothing.
    func fetchesToDelete(_ rule: RetentionRule) async throws -> RetentionSummary
}

/// A history the commands may change: `prune` and `delete`.
public protocol HistoryWriter: HistoryReader {
    /// Deletes what `rule` names, in one transaction; a fetch still running
    /// in a live process is never deleted.
    func deleteFetches(_ rule: RetentionRule) async throws -> RetentionSummary
}

/// A page of the history and where it stood when the page was read.
public struct HistoryListing: Sendable {
    /// Newest first.
    public var fetches: [Fetch]
    public var cursor: HistoryCursor

    public init(fetches: [Fetch], cursor: HistoryCursor) {
        self.fetches = fetches
        self.cursor = cursor
    }
}
