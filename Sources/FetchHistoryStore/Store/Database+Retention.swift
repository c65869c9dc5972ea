import CSQLite
import FetchHistoryModel
import FoundationEssentials

// Retention: deleting fetches (`prune`, `delete`) and giving their space back.
extension Database {
    /// Deletes the fetches `rule` selects, and the sessions that leaves with
    /// no fetch, inside the caller's `HistoryStore.write`: all or nothing.
    /// A fetch still running in a live process is never deleted, and nor is
    /// its session. For `.fetches`, every id must exist and be deletable, or
    /// nothing is deleted (`HistoryError.notFound`, `RetentionError.stillRunning`).
    ///
    /// The space the rows held stays in the file, free for new rows; see
    /// `HistoryStore.reclaimSpace(minimumFreeFraction:)` to give it back.
    ///
    /// ```swift
    /// let summary = try store.write { db in try db.deleteFetches(.keepingNewest(1_000)) }
    /// print("deleted \(summary.fetches) fetches")
    /// ```
    public func deleteFetches(_ rule: RetentionRule) throws -> RetentionSummary {
        let (condition, values) = HistorySQL.selection(try resolve(rule))
        var (summary, sessions) = try plan(condition, values)
        guard summary.fetches > 0 else { return summary }
        let cacheSize = try scalarInt64(HistorySQL.cacheSize)
        try execute(HistorySQL.setCacheSize(-Int64(HistorySQL.retentionCacheKibibytes)))
        // The cache is the connection's, not the transaction's: put back whatever happens.
        defer { try? execute(HistorySQL.setCacheSize(cacheSize)) }
        // Deleting most of the history costs less without the indexes, built
        // again afterwards from what is left (see `HistorySQL.rebuildIndexesAbove`).
        // All in the caller's transaction: no reader ever sees the history
        // without them, and a failure brings them back with the rollback.
        let total = try scalarInt64(HistorySQL.fetchCount)
        let indexes = Double(summary.fetches) >= HistorySQL.rebuildIndexesAbove * Double(total)
            ? try rows(HistorySQL.fetchIndexes) { (name: $0.text(0), sql: $0.text(1)) } : []
        for index in indexes { try execute(HistorySQL.dropIndex(index.name)) }
        // New fetches are numbered above the newest, deleted or not: a
        // follower (`fetchesEnded(after:matching:)`) asks for those above
        // the largest it has seen.
        let largestSeq = try scalarInt64(HistorySQL.largestFetchSeq)
        try execute(HistorySQL.deleteFetches(condition), values)
        // The write lock keeps every other writer out since the plan, but a
        // recorder may have died meanwhile, making its running fetch
        // deletable too: the count is what was deleted.
        summary.fetches = changes
        try execute(HistorySQL.raiseSeqHighWater, [.integer(largestSeq)])
        for index in indexes { try execute(index.sql) }
        let deleteSession = try prepare(HistorySQL.deleteSession)
        for id in sessions { try execute(deleteSession, [.text(id)]) }
        return summary
    }

    /// What `deleteFetches(rule)` would delete now, without deleting
    /// anything: works in a `HistoryStore.read`, on a read-only file too.
    public func fetchesToDelete(_ rule: RetentionRule) throws -> RetentionSummary {
        let (condition, values) = HistorySQL.selection(try resolve(rule))
        return try plan(condition, values).summary
    }

    /// The file's pages, and how many are free.
    public func space() throws -> FileSpace {
        FileSpace(
            pageSize: Int(try scalarInt64(HistorySQL.pageSize)), pages: Int(try scalarInt64(HistorySQL.pageCount)),
            freePages: Int(try scalarInt64(HistorySQL.freePageCount))
        )
    }

    /// Rewrites the file without its free pages when at least
    /// `minimumFreeFraction` of it is free; true if it did. Outside any
    /// transaction (SQLite refuses a VACUUM inside one): through
    /// `HistoryStore.reclaimSpace(minimumFreeFraction:)`.
    func reclaimSpace(minimumFreeFraction: Double) throws -> Bool {
        guard sqlite3_get_autocommit(handle) != 0 else { throw RetentionError.insideTransaction }
        let space = try space()
        guard space.freePages > 0, space.freeFraction >= minimumFreeFraction else { return false }
        try execute(HistorySQL.vacuum)
        // Shrinks the file now rather than at the next checkpoint, and
        // empties the log, which holds a copy of every page VACUUM wrote.
        // Readers of other processes may keep it from finishing: harmless,
        // the next checkpoint completes it.
        _ = try scalarInt64(HistorySQL.truncateLog)
        return true
    }

    /// What deleting the fetches `condition` selects deletes: the summary,
    /// and the ids of the sessions it empties.
    private func plan(_ condition: String, _ values: [SQLValue]) throws -> (summary: RetentionSummary, sessions: [String]) {
        let range = try firstRow(HistorySQL.deletedRange(condition), values) { row in
            (count: Int(row.int64(0)), oldest: row.optionalInt64(1), newest: row.optionalInt64(2))
        }
        let sessions = try rows(HistorySQL.emptiedSessions(condition), values) { $0.text(0) }
        let summary = RetentionSummary(
            fetches: range?.count ?? 0, sessions: sessions.count,
            oldest: range?.oldest.map(Timestamp.init(millisecondsSince1970:)),
            newest: range?.newest.map(Timestamp.init(millisecondsSince1970:)),
            keptRunning: Int(try scalarInt64(HistorySQL.liveRunning(condition), values))
        )
        return (summary, sessions)
    }

    /// The rule as a condition on rows: the newest fetches `keepingNewest`
    /// keeps are found first; named fetches are checked first.
    private func resolve(_ rule: RetentionRule) throws -> RetentionRule.Resolved {
        switch rule {
        case .startedBefore(let time):
            return .startedBefore(time)
        case .keepingNewest(let count):
            guard count > 0 else { return .every }
            let boundary = try firstRow(HistorySQL.newestBoundary, [.integer(Int64(count - 1))]) { row in
                (row.int64(0), row.int64(1))
            }
            guard let (startedAt, seq) = boundary else { return .nothing }
            return .olderThan(startedAt: startedAt, seq: seq)
        case .fetches(let ids):
            var unique: [UUID] = []
            for id in ids where !unique.contains(id) {
                let fetch = try fetch(idPrefix: id.lowercased)
                if fetch.status == .running { throw RetentionError.stillRunning(id) }
                unique.append(id)
            }
            return .ids(unique)
        }
    }
}
