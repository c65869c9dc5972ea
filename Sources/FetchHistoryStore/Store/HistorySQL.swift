import FetchHistoryModel
import FoundationEssentials

/// The store's SQL, in one place: every statement the project runs outside
/// `Migrations/`.
///
/// The statements that record and import are also open to the benchmarks
/// (`@_spi(Benchmarks) import FetchHistory`), so their raw C and GRDB
/// engines run exactly this SQL: not a copy that could drift.
@_spi(Benchmarks)
public enum HistorySQL {
    @_spi(Benchmarks) public static let insertSession = """
        INSERT INTO session (id, started_at, source, host, process_id, boot_id, process_started)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// A fetch starts when it is tapped: `started_at` and `tapped_at` are the
    /// same moment, kept apart so a replay can tell if either was changed.
    /// Its `seq` is SQLite's (the largest plus one: NULL asks for it) unless
    /// a deletion took away a larger one (`Migrations/0007_keep_seq_growing.sql`).
    /// Named `rowid`, which `seq` is another name for, and which the tests'
    /// histories of schema 4 have too.
    @_spi(Benchmarks) public static let insertFetch = """
        INSERT INTO fetch (rowid, id, session_id, source, started_at, tapped_at, timeout_ms)
        VALUES (\(seqAboveHighWater), ?1, ?2, ?3, ?4, ?4, ?5)
        """

    /// The high-water mark plus one when it is not below the largest `seq`
    /// in the table; else NULL.
    private static let seqAboveHighWater = """
        (SELECT seq + 1 FROM fetch_seq_high_water WHERE seq >= (SELECT coalesce(max(rowid), 0) FROM fetch))
        """

    /// Keeps `?` as the high-water mark unless it already is higher.
    static let raiseSeqHighWater = """
        INSERT INTO fetch_seq_high_water (only_row, seq) VALUES (1, ?)
        ON CONFLICT (only_row) DO UPDATE SET seq = max(seq, excluded.seq)
        """

    @_spi(Benchmarks) public static let endFetch = """
        UPDATE fetch SET ended_at = ?1, duration_ms = ?2, outcome = ?3, cancel_reason = ?4, value = ?5, error = ?6,
            http_status = ?7, response_bytes = ?8, ended_by = ?9, ended_by_at = ?1, answer_value = ?10, answer_error = ?11
        WHERE id = ?12 AND outcome IS NULL
        """

    @_spi(Benchmarks) public static let importSession = """
        INSERT INTO session (id, started_at, source, host, process_id) VALUES (?, ?, ?, '', 0)
        ON CONFLICT (id) DO NOTHING
        """

    /// An imported fetch, numbered by the import itself (`seq`, parameter
    /// 1): the rows an import adds are exactly those above the largest
    /// `seq` before it.
    @_spi(Benchmarks) public static let importFetch = """
        INSERT INTO fetch (
            seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
            http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error
        )
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """

    /// The largest `seq` a fetch ever had, deleted or not: what an import
    /// numbers its rows above.
    @_spi(Benchmarks) public static let largestFetchSeq = """
        SELECT max(coalesce((SELECT max(seq) FROM fetch), 0), coalesce((SELECT seq FROM fetch_seq_high_water), 0))
        """
    static let fetchSeq = "SELECT seq FROM fetch WHERE id = ?"

    /// How many fetches the history holds, counting no further than the
    /// bound parameter: cheap however large the table is.
    @_spi(Benchmarks) public static let fetchCountUpTo = "SELECT count(*) FROM (SELECT 1 FROM fetch LIMIT ?)"

    /// The indexes an import may build after its rows: every index of
    /// `fetch` written in `Migrations/`. The `UNIQUE` constraint's own index
    /// has no SQL (and cannot be dropped): it stays, to find the ids the
    /// history already has while the rows go in.
    @_spi(Benchmarks) public static let fetchIndexes = """
        SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'fetch' AND sql IS NOT NULL ORDER BY rowid
        """

    /// Drops the index `name`, a name read from `sqlite_schema` itself,
    /// never from input.
    @_spi(Benchmarks) public static func dropIndex(_ name: String) -> String {
        "DROP INDEX \"\(name.replacing("\"", with: "\"\""))\""
    }

    @_spi(Benchmarks) public static let cacheSize = "PRAGMA cache_size"

    /// The page cache an import works with, in KiB (a negative
    /// `cache_size` is "the number of kibibytes of memory", sqlite.org/pragma.html#pragma_cache_size).
    /// Enough for the indexes a large import writes into to stay in memory:
    /// with SQLite's default 2 MB they are read back and written out again
    /// and again.
    @_spi(Benchmarks) public static let importCacheKibibytes = 256 * 1024

    /// The page cache while an import builds its indexes after the rows.
    /// SQLite sorts an index's entries in as much memory as the page cache
    /// may hold before it spills them to temporary files, on top of the
    /// cache itself
    @_spi(Benchmarks) public static let indexBuildCacheKibibytes = 64 * 1024

    /// Sets the page cache to `value`, as `PRAGMA cache_size` reports it
    /// (pages, or KiB when negative). A PRAGMA takes no bound parameter; the
    /// number is the store's own, or one SQLite reported.
    @_spi(Benchmarks) public static func setCacheSize(_ value: Int64) -> String {
        "PRAGMA cache_size = \(value)"
    }

    /// The ids an import skipped, and the record that brought each.
    static let createSkippedIDs = "CREATE TEMP TABLE import_skipped (id TEXT PRIMARY KEY, record INTEGER NOT NULL)"
    static let insertSkippedID = "INSERT INTO temp.import_skipped (id, record) VALUES (?, ?) ON CONFLICT (id) DO NOTHING"
    static let skippedIDRecord = "SELECT record FROM temp.import_skipped WHERE id = ?"
    static let dropSkippedIDs = "DROP TABLE temp.import_skipped"

    /// 1 or 0 for a running fetch (is its recorder alive?), NULL for an
    /// ended one. Only evaluated for running rows, which are few.
    static let isAlive = """
        CASE WHEN outcome IS NULL THEN (SELECT fetch_history_process_alive(host, boot_id, process_id, process_started) \
        FROM session WHERE session.id = fetch.session_id) END
        """

    static let fetchColumns =
        "id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error, \(isAlive), "
            + "http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error"

    static let fetchByIDRange = "SELECT \(fetchColumns) FROM fetch WHERE id >= ? AND id < ? ORDER BY id LIMIT 3"

    static let sessionColumns = "id, started_at, source, host, process_id, boot_id, process_started"
    static let sessionByIDRange = "SELECT \(sessionColumns) FROM session WHERE id >= ? AND id < ? ORDER BY id LIMIT 3"
    static let sessionByID = "SELECT \(sessionColumns) FROM session WHERE id = ?"
    static let newestSession = "SELECT \(sessionColumns) FROM session ORDER BY started_at DESC, rowid DESC LIMIT 1"

    static let tableNames = "SELECT name FROM sqlite_schema WHERE type = 'table'"

    /// Every row of `table`, a name read from `sqlite_schema` itself, never from input.
    static func everyRow(of table: String) -> String {
        "SELECT * FROM \"\(table)\""
    }

    /// Whether any fetch has exactly the source bound.
    static let sourceExists = "SELECT 1 FROM fetch WHERE source = ? LIMIT 1"

    /// The first source from (or after) the one bound, in `fetch_by_source`'s
    /// order: one seek each, however many fetches a source has.
    static let firstSourceFrom = "SELECT source FROM fetch WHERE source >= ? ORDER BY source LIMIT 1"
    static let firstSourceAfter = "SELECT source FROM fetch WHERE source > ? ORDER BY source LIMIT 1"

    // Following (`list --follow`): fetches are found by `seq`, the rowid.
    static let largestFetchSeqOrZero = "SELECT coalesce(max(seq), 0) FROM fetch"
    static let runningFetchSeqs = "SELECT seq FROM fetch WHERE outcome IS NULL"

    /// The fetches written after `seq` ?1, and those in the JSON array ?2
    /// (the ones seen running): each `seq` and its outcome. The two parts
    /// never overlap: every watched `seq` is at most ?1.
    static let fetchesWrittenOrWatched = """
        SELECT seq, outcome FROM fetch WHERE seq > ?
        UNION ALL
        SELECT seq, outcome FROM fetch WHERE seq IN (SELECT value FROM json_each(?))
        """

    /// The fetches matching `filter` among those whose `seq` is in a JSON
    /// array (bound last), oldest first.
    static func fetchesBySeq(_ filter: HistoryFilter) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        return (
            "SELECT \(fetchColumns) FROM fetch\(and(conditions, "seq IN (SELECT value FROM json_each(?))")) ORDER BY started_at, seq",
            values
        )
    }

    static func countByOutcome(_ conditions: String) -> String {
        "SELECT outcome, count(*) FROM fetch\(conditions) GROUP BY 1"
    }

    static func countRunningByLiveness(_ conditions: String) -> String {
        "SELECT \(isAlive), count(*) FROM fetch\(and(conditions, "outcome IS NULL")) GROUP BY 1"
    }

    static func oldestFirst(_ filter: HistoryFilter) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        return ("SELECT \(fetchColumns) FROM fetch\(conditions) ORDER BY started_at, seq", values)
    }

    static func newestFirst(_ filter: HistoryFilter, limit: Int?) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        return (
            "SELECT \(fetchColumns) FROM fetch\(conditions) ORDER BY started_at DESC, seq DESC LIMIT ?",
            values + [.integer(Int64(limit ?? -1))]
        )
    }

    /// Durations of succeeded fetches, ascending, read from the partial index
    /// `fetch_succeeded_by_duration`. The outcome is written literally: SQLite
    /// only uses a partial index when the query's own text implies its WHERE.
    static func succeededDurations(_ conditions: String) -> String {
        "SELECT duration_ms FROM fetch INDEXED BY fetch_succeeded_by_duration\(and(conditions, "outcome = 'succeeded'")) ORDER BY duration_ms"
    }

    /// `conditions` (a WHERE clause or nothing) with one more fixed condition.
    static func and(_ conditions: String, _ condition: String) -> String {
        conditions.isEmpty ? " WHERE \(condition)" : conditions + " AND \(condition)"
    }

    /// A WHERE clause made of fixed fragments, and the values it binds.
    static func conditions(for filter: HistoryFilter) -> (String, [SQLValue]) {
        var clauses: [String] = []
        var values: [SQLValue] = []
        switch filter.status {
        case nil: break
        case .running: clauses.append("outcome IS NULL AND \(isAlive) = 1")
        case .interrupted: clauses.append("(outcome = 'interrupted' OR (outcome IS NULL AND \(isAlive) = 0))")
        case let status?:
            clauses.append("outcome = ?")
            values.append(.text(status.rawValue))
        }
        if let source = filter.source {
            clauses.append("source = ?")
            values.append(.text(source))
        }
        if let sources = filter.sources {
            // One `?` per source (SQLite takes an empty list: no row matches).
            clauses.append("source IN (" + Array(repeating: "?", count: sources.count).joined(separator: ", ") + ")")
            values += sources.map { .text($0) }
        }
        if let text = filter.sourceMatching {
            let (condition, bound) = SourceMatch(text).condition
            clauses.append(condition)
            values += bound
        }
        if let session = filter.sessionID {
            clauses.append("session_id = ?")
            values.append(.text(session.lowercased))
        }
        if let since = filter.since {
            clauses.append("started_at >= ?")
            values.append(.integer(since.millisecondsSince1970))
        }
        if let until = filter.until {
            clauses.append("started_at < ?")
            values.append(.integer(until.millisecondsSince1970))
        }
        // Last: the cheap, indexed conditions narrow the rows first.
        if let text = filter.containing {
            clauses.append("fetch_history_contains(?, error, source, value)")
            values.append(.text(text))
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), values)
    }

    /// The bounds of the ids starting with `prefix`: every id is lower-case
    /// hexadecimal and dashes, all below "~".
    static func idRange(_ text: String) throws(HistoryError) -> (String, String) {
        let prefix = text.lowercased()
        guard !prefix.isEmpty, prefix.count <= 36, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw .invalidID(text.count > 40 ? text.prefix(40) + "…" : text)
        }
        return (prefix, prefix + "~")
    }
}
