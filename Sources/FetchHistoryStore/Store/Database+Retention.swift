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

// The SQL of `prune` and `delete`: which fetches and sessions go, and how
// the space they held is given back.
extension HistorySQL {
    /// A fetch that may be deleted: one that ended, or one left running by a
    /// process that is gone (it reads as interrupted and will never end). A
    /// running fetch of a live process is never deleted: its recorder would
    /// fail to record its end.
    static let deletable = "(outcome IS NOT NULL OR \(isAlive) = 0)"

    /// The fetches `rule` selects, whether deletable or not: a condition
    /// made of fixed fragments, and the values it binds.
    static func selection(_ rule: RetentionRule.Resolved) -> (String, [SQLValue]) {
        switch rule {
        case .startedBefore(let time): ("started_at < ?1", [.integer(time.millisecondsSince1970)])
        case .olderThan(let startedAt, let seq): ("(started_at, seq) < (?1, ?2)", [.integer(startedAt), .integer(seq)])
        case .every: ("1", [])
        case .nothing: ("0", [])
        // One bound JSON array of ids, however many were named: one cached statement.
        case .ids(let ids): ("id IN (SELECT value FROM json_each(?1))", [.text(ids.jsonArray)])
        }
    }

    /// The `started_at` and `seq` of the fetch with `?` newer ones: the
    /// oldest of the newest `? + 1`, in the order `list` shows them.
    static let newestBoundary = "SELECT started_at, seq FROM fetch ORDER BY started_at DESC, seq DESC LIMIT 1 OFFSET ?"

    /// How many fetches `condition` deletes, and the oldest and newest start among them.
    static func deletedRange(_ condition: String) -> String {
        "SELECT count(*), min(started_at), max(started_at) FROM fetch WHERE \(condition) AND \(deletable)"
    }

    /// How many fetches `condition` selects that are running in a live process, and so stay.
    static func liveRunning(_ condition: String) -> String {
        "SELECT count(*) FROM fetch WHERE \(condition) AND outcome IS NULL AND \(isAlive) = 1"
    }

    /// The sessions deleting the fetches `condition` selects leaves empty,
    /// and whose recorder is gone: a live recorder may still add fetches to
    /// its session, which must then exist. A session that was already empty
    /// is left alone (its recorder may be about to start its first fetch).
    static func emptiedSessions(_ condition: String) -> String {
        """
        SELECT id FROM session
        WHERE id IN (SELECT session_id FROM fetch WHERE \(condition) AND \(deletable))
          AND NOT EXISTS (SELECT 1 FROM fetch WHERE fetch.session_id = session.id AND NOT (\(condition) AND \(deletable)))
          AND fetch_history_process_alive(host, boot_id, process_id, process_started) = 0
        """
    }

    static func deleteFetches(_ condition: String) -> String {
        "DELETE FROM fetch WHERE \(condition) AND \(deletable)"
    }

    static let deleteSession = "DELETE FROM session WHERE id = ?"

    static let fetchCount = "SELECT count(*) FROM fetch"

    /// A deletion of at least this share of the fetches drops the indexes
    /// `HistorySQL.fetchIndexes` lists and builds them again from the rows
    /// left: SQLite builds an index from sorted rows in one pass, while
    /// deleting row by row writes into every index at random places.
    /// Measured, 900k of 1M fetches (2 cores, 256 MiB cache): 9 s with the
    /// rebuild (0.8 s dropping, 7.1 s deleting, 0.6 s building), 22 s
    /// through the live indexes; 64 s with SQLite's default 2 MB cache.
    static let rebuildIndexesAbove = 0.5

    /// The page cache while fetches are deleted, in KiB, as for an import
    /// (`importCacheKibibytes`): the `UNIQUE` index on random ids is written
    /// all over, and with SQLite's default 2 MB each page is read back and
    /// written out again and again.
    static let retentionCacheKibibytes = 256 * 1024

    static let pageSize = "PRAGMA page_size"
    static let pageCount = "PRAGMA page_count"
    static let freePageCount = "PRAGMA freelist_count"

    /// Rewrites the file with only the pages in use. "The VACUUM command
    /// works by copying the contents of the database into a temporary
    /// database file and then overwriting the original with the contents of
    /// the temporary file" (sqlite.org/lang_vacuum.html): its cost follows
    /// what is kept, not what was deleted.
    static let vacuum = "VACUUM"

    /// Copies the write-ahead log into the file and empties it: after a
    /// VACUUM, the log holds a whole copy of the database until then.
    static let truncateLog = "PRAGMA wal_checkpoint(TRUNCATE)"
}

extension [UUID] {
    /// The ids as a JSON array, for `json_each`: lower-case hexadecimal
    /// digits and dashes, nothing to escape.
    fileprivate var jsonArray: String {
        "[" + map { "\"\($0.lowercased)\"" }.joined(separator: ",") + "]"
    }
}
