import FoundationEssentials

/// What the reading commands need from a history, whatever holds it: the
/// seam between the commands and a store. `HistoryStore` (a SQLite file)
/// fills it; a history on a server fills it with the same values and the
/// same orders, behind the same `async` calls. Nothing here names a
/// storage type: filters, fetches, sessions and summaries are values.
///
/// Every call is one consistent read. A caller that needs two answers of
/// one moment asks for both in one call (`listing(matching:limit:)`).
///
/// The calls run on the caller's executor (`nonisolated(nonsending)`) until
/// the history itself suspends them: a history that answers on the
/// caller's thread (`HistoryStore.onCallersThread`, for a command-line
/// tool's main thread) never suspends, so a command on a local file starts
/// no thread.
///
/// ```swift
/// func failures(in history: some HistoryReader) async throws -> [Fetch] {
///     try await history.fetches(matching: HistoryFilter(status: .failed), limit: 20)
/// }
/// ```
public protocol HistoryReader: Sendable {
    /// Fetches matching `filter`, in `order` (`newestFirst`: those of one
    /// millisecond in reverse recording order); at most `limit` when given.
    nonisolated(nonsending) func fetches(matching filter: HistoryFilter, order: FetchOrder, limit: Int?) async throws -> [Fetch]

    /// The newest `limit` fetches matching `filter`, as `fetches` gives them,
    /// and a cursor at the same moment, from which `fetchesEnded(after:…)`
    /// gives each fetch that ends later exactly once (`list --follow`).
    nonisolated(nonsending) func listing(matching filter: HistoryFilter, limit: Int?) async throws -> HistoryListing

    /// The fetches that ended since `cursor`, oldest first, matching
    /// `filter`; moves `cursor` past them.
    nonisolated(nonsending) func fetchesEnded(
        after cursor: inout HistoryCursor, matching filter: HistoryFilter
    ) async throws -> [Fetch]

    /// Calls `body` with each fetch matching `filter`, oldest first (ties in
    /// recording order), one at a time as they are read, never holding them
    /// all (`export`). `body` runs where the store reads, not necessarily
    /// on the caller's thread; what it throws ends the read and is rethrown.
    nonisolated(nonsending) func forEachFetch(
        matching filter: HistoryFilter, _ body: @escaping @Sendable (Fetch) throws -> Void
    ) async throws

    /// The fetch whose id is `prefix` or starts with it; an unknown or
    /// ambiguous prefix throws.
    nonisolated(nonsending) func fetch(idPrefix prefix: String) async throws -> Fetch

    /// The session whose id is `prefix` or starts with it.
    nonisolated(nonsending) func session(idPrefix prefix: String) async throws -> Session

    /// The fetches whose 8-character short id ends with `end`, newest
    /// first, at most `limit` (`IDArgument`).
    nonisolated(nonsending) func fetches(shortIDEndingWith end: String, limit: Int) async throws -> [Fetch]

    /// The sessions whose 8-character short id ends with `end`, newest
    /// first, at most `limit`.
    nonisolated(nonsending) func sessions(shortIDEndingWith end: String, limit: Int) async throws -> [Session]

    /// The session with `id`, or nil when the history has none.
    nonisolated(nonsending) func session(id: UUID) async throws -> Session?

    /// The sessions matching `filter`, newest first, with their counts; at
    /// most `limit`.
    nonisolated(nonsending) func sessionSummaries(matching filter: SessionFilter, limit: Int?) async throws -> [SessionSummary]

    /// Counts, latencies and rates of the fetches matching `filter`, and,
    /// per group of `groupings` (none, one or two; `stats --by
    /// source,problem`), the same counted per group, a second grouping's
    /// groups within the first's (`StatisticsGroup.subgroups`): one read, so
    /// the groups add up to the totals. Groups come in key order; problems
    /// (`StatisticsGrouping.problem`) most frequent first.
    nonisolated(nonsending) func statistics(
        matching filter: HistoryFilter, by groupings: [StatisticsGrouping]
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup])

    /// What `HistoryWriter.deleteFetches(rule)` would delete now, deleting nothing.
    nonisolated(nonsending) func fetchesToDelete(_ rule: RetentionRule) async throws -> RetentionSummary
}

extension HistoryReader {
    /// Fetches matching `filter`, newest first (those of one millisecond in
    /// reverse recording order); at most `limit` when given.
    public nonisolated(nonsending) func fetches(matching filter: HistoryFilter, limit: Int?) async throws -> [Fetch] {
        try await fetches(matching: filter, order: .newestFirst, limit: limit)
    }

    /// Counts, latencies and rates of the fetches matching `filter`, and,
    /// when `grouping` is given, the same counted per group.
    public nonisolated(nonsending) func statistics(
        matching filter: HistoryFilter, by grouping: StatisticsGrouping?
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup]) {
        try await statistics(matching: filter, by: grouping.map { [$0] } ?? [])
    }

    /// The sessions, newest first, with their counts; at most `limit`.
    public nonisolated(nonsending) func sessionSummaries(limit: Int?) async throws -> [SessionSummary] {
        try await sessionSummaries(matching: .all, limit: limit)
    }

    /// The fetch `text` names, as a person types an id (`IDArgument`): the
    /// end of its short id, or the start of its id.
    public nonisolated(nonsending) func fetch(named text: String) async throws -> Fetch {
        if case .shortIDEnd(let end) = try IDArgument(text),
           let fetch = try IDArgument.pick(try await fetches(shortIDEndingWith: end, limit: IDArgument.candidateLimit), kind: "fetch", text: text) {
            return fetch
        }
        return try await fetch(idPrefix: text)
    }

    /// The session `text` names, as a person types an id (`IDArgument`).
    public nonisolated(nonsending) func session(named text: String) async throws -> Session {
        if case .shortIDEnd(let end) = try IDArgument(text),
           let session = try IDArgument.pick(try await sessions(shortIDEndingWith: end, limit: IDArgument.candidateLimit), kind: "session", text: text) {
            return session
        }
        return try await session(idPrefix: text)
    }

    /// Counts, latencies and rates of the fetches matching `filter`.
    public nonisolated(nonsending) func statistics(matching filter: HistoryFilter) async throws -> HistoryStatistics {
        try await statistics(matching: filter, by: []).overall
    }
}

/// A history the commands may change: `import`, `prune` and `delete`.
public protocol HistoryWriter: HistoryReader {
    /// Adds every fetch `produce` hands to `insert`, in one transaction:
    /// all or nothing. A fetch whose id the history already has is skipped;
    /// an id given twice by `produce` throws `RepeatedFetchID`. `produce`
    /// runs where the store writes, not necessarily on the caller's thread.
    nonisolated(nonsending) func importFetches(
        _ produce: @escaping @Sendable (_ insert: (Fetch) throws -> Void) throws -> Void
    ) async throws -> ImportSummary

    /// Deletes what `rule` names, in one transaction; a fetch still running
    /// in a live process is never deleted.
    nonisolated(nonsending) func deleteFetches(_ rule: RetentionRule) async throws -> RetentionSummary

    /// Gives the space deleted fetches left back to the file system where
    /// the history has to be told to (a SQLite file is rewritten once a
    /// good share of it is free); nil where the history does it on its own.
    nonisolated(nonsending) func reclaimSpace() async throws -> ReclaimedSpace?
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
