import FetchHistoryModel

// The SQLite store behind the commands' seam: each call one `read` or
// `write` on the store's queue, so none blocks the caller.
extension HistoryStore: HistoryWriter {
    public func fetches(matching filter: HistoryFilter, limit: Int?) async throws -> [Fetch] {
        try await read { db in try db.fetches(matching: filter, limit: limit) }
    }

    public func listing(matching filter: HistoryFilter, limit: Int?) async throws -> HistoryListing {
        try await read { db in HistoryListing(fetches: try db.fetches(matching: filter, limit: limit), cursor: try db.cursor()) }
    }

    public func fetchesEnded(after cursor: inout HistoryCursor, matching filter: HistoryFilter) async throws -> [Fetch] {
        let from = cursor
        let (ended, next) = try await read { db in
            var moved = from
            return (try db.fetchesEnded(after: &moved, matching: filter), moved)
        }
        cursor = next
        return ended
    }

    public func forEachFetch(matching filter: HistoryFilter, _ body: @escaping @Sendable (Fetch) throws -> Void) async throws {
        try await read { db in try db.forEachFetch(matching: filter, body) }
    }

    public func fetch(idPrefix prefix: String) async throws -> Fetch {
        try await read { db in try db.fetch(idPrefix: prefix) }
    }

    public func session(idPrefix prefix: String) async throws -> Session {
        try await read { db in try db.session(idPrefix: prefix) }
    }

    public func sessionSummaries(limit: Int?) async throws -> [SessionSummary] {
        try await read { db in try db.sessionSummaries(limit: limit) }
    }

    public func statistics(matching filter: HistoryFilter) async throws -> HistoryStatistics {
        try await read { db in try db.statistics(matching: filter) }
    }

    public func statistics(matching filter: HistoryFilter, by grouping: StatisticsGrouping) async throws -> [StatisticsGroup] {
        try await read { db in try db.statistics(matching: filter, by: grouping) }
    }

    public func fetchesToDelete(_ rule: RetentionRule) async throws -> RetentionSummary {
        try await read { db in try db.fetchesToDelete(rule) }
    }

    public func deleteFetches(_ rule: RetentionRule) async throws -> RetentionSummary {
        try await write { db in try db.deleteFetches(rule) }
    }
}
