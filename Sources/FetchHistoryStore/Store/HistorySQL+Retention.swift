import FetchHistoryModel
import FoundationEssentials

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
