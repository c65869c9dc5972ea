import FetchHistoryModel
import FoundationEssentials

// Import: fetches read from an export, added in the caller's `HistoryStore.write`.
extension Database {
    /// Adds fetches read by `produce`, inside the caller's write transaction:
    /// all or nothing. Fetches whose id is already in the history are
    /// skipped, so importing the same file twice changes nothing. Sources
    /// are stored as recording stores them, secrets hidden
    /// (`RedactedURL.hidingSecrets(ofSource:)`), and counted. An id used
    /// twice within the import is refused (`RepeatedFetchID`). Sessions the
    /// history lacks are created with no recorder process (their running
    /// fetches read as interrupted: nothing in this database will ever end
    /// them). Memory stays flat however many fetches come: the page cache
    /// grows to `HistorySQL.importCacheKibibytes` for the import's duration,
    /// and no further.
    ///
    /// ```swift
    /// let summary = try store.write { db in
    ///     try db.importFetches { insert in try fetches.forEach(insert) }
    /// }
    /// ```
    ///
    /// From an export, `importFetches(from: FetchRecordReader(…))` adds
    /// each record's place to a `RepeatedFetchID`.
    public func importFetches(_ produce: (_ insert: (Fetch) throws -> Void) throws -> Void) throws -> ImportSummary {
        try importRows { insert in
            // One row made ready at a time, where it is added: a reused buffer.
            var row = ImportRows.Encoder()
            try withoutActuallyEscaping(insert) { insert in
                try produce { fetch in
                    row.removeAll()
                    row.append(fetch)
                    try insert(row.rows, 0)
                }
            }
        }
    }

    /// Adds the fetches of each `ImportRows` `produce` hands to `insert`
    /// with a row's index, as `importFetches(_:)` adds fetches: made ready
    /// by whoever read them (the reading thread of `FetchRecordReader`),
    /// so that this thread, which sets an import's pace, only binds them.
    package func importRows(_ produce: (_ insert: (ImportRows, Int) throws -> Void) throws -> Void) throws -> ImportSummary {
        let cacheSize = try scalarInt64(HistorySQL.cacheSize)
        try execute(HistorySQL.setCacheSize(-Int64(HistorySQL.importCacheKibibytes)))
        // The cache is the connection's, not the transaction's: put back
        // whatever happens.
        defer { try? execute(HistorySQL.setCacheSize(cacheSize)) }
        var batch = try ImportBatch(self)
        try produce { rows, index in try batch.insert(rows, at: index) }
        return try batch.finish()
    }
}

/// Fetches made ready for an import's INSERT, away from the connection:
/// each one's values but its `seq` (the import numbers rows as it adds
/// them), its source with secrets hidden, and what its session row needs.
package struct ImportRows: Sendable {
    /// What the import needs of a fetch besides its values.
    struct Row: Sendable {
        var id: UUID
        var sessionID: UUID
        var startedAt: Int64
        var host: String
        var storedSource: String
        /// The source as read, when it held secrets (counted in the summary).
        var sourceWithSecrets: String?
    }

    /// The values each row binds after `seq`.
    static let valuesPerRow = 22

    private(set) var rows: [Row] = []
    fileprivate private(set) var values = StatementArguments()

    fileprivate init() {}

    /// The slots of row `index` in `values`.
    fileprivate func slots(of index: Int) -> Range<Int> {
        index * Self.valuesPerRow..<(index + 1) * Self.valuesPerRow
    }

    /// Builds rows, hiding a source's secrets once for the fetches that
    /// share it (a session's fetches come one after another).
    ///
    /// ```swift
    /// var encoder = ImportRows.Encoder(reservingCapacity: records.count)
    /// for record in records { encoder.append(record.fetch) }
    /// let rows = encoder.rows
    /// ```
    package struct Encoder {
        package private(set) var rows = ImportRows()
        private var source = (read: "", stored: "")

        /// An encoder with room for `count` rows made at once: grown step
        /// by step, a batch's values were copied a dozen times.
        package init(reservingCapacity count: Int = 0) {
            rows.rows.reserveCapacity(count)
            rows.values.reserveCapacity(rows: count, valuesPerRow: ImportRows.valuesPerRow)
        }

        mutating func removeAll() {
            rows.rows.removeAll(keepingCapacity: true)
            rows.values.removeAll()
        }

        package mutating func append(_ fetch: Fetch) {
            if fetch.source != source.read {
                source = (fetch.source, RedactedURL.hidingSecrets(ofSource: fetch.source) ?? fetch.source)
            }
            rows.rows.append(Row(
                id: fetch.id, sessionID: fetch.sessionID, startedAt: fetch.startedAt.millisecondsSince1970, host: fetch.host,
                storedSource: source.stored, sourceWithSecrets: source.stored == source.read ? nil : source.read
            ))
            let script = fetch.script
            let body = fetch.response?.body
            rows.values.append(fetch.id)
            rows.values.append(fetch.sessionID)
            rows.values.append(source.stored)
            rows.values.append(fetch.startedAt.millisecondsSince1970)
            rows.values.append(fetch.endedAt?.millisecondsSince1970)
            rows.values.append(fetch.durationMilliseconds)
            if let outcome = fetch.outcome {
                // Unwrapped once: read through `?.`, the columns were copied for each.
                let columns = StoredOutcome(outcome)
                rows.values.append(columns.outcome)
                rows.values.append(columns.cancelReason)
                rows.values.append(columns.value)
                rows.values.append(columns.error)
            } else {
                for _ in 0..<4 { rows.values.append(nil as Int64?) }
            }
            rows.values.append(fetch.response.map { Int64($0.status) })
            rows.values.append(fetch.response.map { Int64($0.bytes) })
            rows.values.append(script?.tappedAt.millisecondsSince1970)
            rows.values.append(script?.timeoutMilliseconds)
            rows.values.append(script?.end?.cause.name)
            rows.values.append(script?.end?.at.millisecondsSince1970)
            rows.values.append(script?.end?.cause.answerValue)
            rows.values.append(script?.end?.cause.answerError)
            rows.values.append(fetch.host)
            rows.values.append(body?.text)
            rows.values.append(body?.contentType)
            rows.values.append(body.map { Int64($0.isTruncated ? 1 : 0) })
        }
    }
}

/// One import in progress.
///
/// Into a history with fewer than `ImportBatch.deferIndexesBelow` fetches,
/// the indexes are dropped first and built again after the rows: SQLite
/// builds an index from sorted rows in one pass, faster than it maintains
/// one row by row (SQLite alone loading 1M fetches: 13 s instead of 27 s;
/// the five indexes cost 4 s of CPU built afterwards, 8 s maintained). It
/// is all one transaction, so no reader ever sees the history without
/// them, and a failed import brings them back with its rollback. Into a
/// larger history the rows go into the live indexes: rebuilding them over
/// every fetch already there cost more than it saved (1M into 1M: 20 s of
/// CPU either way, but sorting 2M rows spilled to temporary files: 87 s
/// instead of 35 s).
///
/// An id used twice within the import is told from one the history already
/// had without keeping the import's ids in memory: the `UNIQUE` index on
/// `id`, which always stays, finds the row the id is taken by, and the row's
/// `seq` says whether this import added it. The import numbers its rows
/// itself, the n-th added at `seqBefore + n`. Only skipped ids are noted, in
/// a temporary table, so a re-import stays flat too.
@_spi(Benchmarks)
public struct ImportBatch {
    /// Below this many fetches in the history, an import builds the indexes
    /// after its rows. Rebuilding them over 10,000 fetches takes about 40 ms,
    /// which an import of one fetch into such a history pays for nothing,
    /// and which one of thousands more than earns back.
    @_spi(Benchmarks) public static let deferIndexesBelow: Int64 = 10_000

    private let database: Database
    private let insertSession: Statement
    private let insertFetch: Statement
    /// The largest `seq` ever given before the import: the rows above it are the ones
    /// this import added.
    private let seqBefore: Int64
    /// Whether SQLite numbers the rows as the import would: it gives a row
    /// the largest `seq` in the table plus one, which is `seqBefore + n`
    /// for the n-th row added unless a deleted fetch had a larger one (the
    /// high-water mark). It then finds the place at the table's end instead
    /// of searching the table for a number bound (callgrind: 1,000
    /// instructions a row, 5% of an insert).
    private let sqliteNumbersRows: Bool
    /// The SQL of the indexes dropped until the rows are in, in creation order.
    private let deferredIndexes: [String]
    private var summary = ImportSummary(added: 0, skipped: 0)
    /// The number of the fetch being inserted, from 1.
    private var record = 0
    /// The sessions seen, and the last one's.
    private var sessions: Set<UUID> = []
    private var session: UUID?
    /// The sources read that held secrets.
    private var sourcesWithSecrets: Set<String> = []
    private var skipped = SkippedRecords()
    private var hasSkippedTable = false

    init(_ database: Database) throws {
        self.database = database
        seqBefore = try database.scalarInt64(HistorySQL.largestFetchSeq)
        sqliteNumbersRows = try database.scalarInt64(HistorySQL.largestSeqInTable) == seqBefore
        if try database.scalarInt64(HistorySQL.fetchCountUpTo, [.integer(Self.deferIndexesBelow)]) < Self.deferIndexesBelow {
            let indexes = try database.rows(HistorySQL.fetchIndexes) { row in (name: row.text(0), sql: row.text(1)) }
            for index in indexes { try database.executeScript(HistorySQL.dropIndex(index.name)) }
            deferredIndexes = indexes.map(\.sql)
        } else {
            deferredIndexes = []
        }
        insertSession = try database.prepare(HistorySQL.importSession)
        insertFetch = try database.prepare(HistorySQL.importFetch)
    }

    /// Adds row `index` of `rows`, or notes it skipped.
    mutating func insert(_ rows: ImportRows, at index: Int) throws {
        record += 1
        let row = rows.rows[index]
        if let source = row.sourceWithSecrets { sourcesWithSecrets.insert(source) }
        // A session's fetches come one after another: its id is written
        // out once for them all.
        if row.sessionID != session, sessions.insert(row.sessionID).inserted {
            try database.execute(insertSession, [
                .text(row.sessionID.lowercased), .integer(row.startedAt), .text(row.storedSource), .text(row.host),
            ])
        }
        session = row.sessionID
        let seq = seqBefore + Int64(summary.added) + 1
        try insertFetch.run(first: sqliteNumbersRows ? nil : seq, rows.values, slots: rows.slots(of: index))
        if database.changes == 1 {
            summary.added += 1
        } else {
            try skip(row.id)
        }
    }

    /// The id is taken: by a fetch this import added, by one it skipped, or
    /// by one the history had (skipped, and noted).
    private mutating func skip(_ id: UUID) throws {
        let text = id.lowercased
        let seq = try database.scalarInt64(HistorySQL.fetchSeq, [.text(text)])
        if seq > seqBefore {
            throw RepeatedFetchID(id: id, firstRecord: skipped.record(ofAdded: Int(seq - seqBefore)))
        }
        if !hasSkippedTable {
            try database.execute(HistorySQL.createSkippedIDs)
            hasSkippedTable = true
        }
        try database.execute(HistorySQL.insertSkippedID, [.text(text), .integer(Int64(record))])
        if database.changes == 0 {
            let first = try database.scalarInt64(HistorySQL.skippedIDRecord, [.text(text)])
            throw RepeatedFetchID(id: id, firstRecord: Int(first))
        }
        skipped.append(record)
        summary.skipped += 1
    }

    /// Builds the deferred indexes and cleans up, before the commit (a
    /// rollback takes the table with it, and brings the indexes back).
    func finish() throws -> ImportSummary {
        if !deferredIndexes.isEmpty {
            try database.execute(HistorySQL.setCacheSize(-Int64(HistorySQL.indexBuildCacheKibibytes)))
        }
        for sql in deferredIndexes { try database.executeScript(sql) }
        if hasSkippedTable { try database.execute(HistorySQL.dropSkippedIDs) }
        var summary = summary
        summary.sourcesWithSecretsHidden = sourcesWithSecrets.count
        return summary
    }
}

/// The numbers of the records an import skipped, as runs of consecutive
/// numbers (a re-import skips them all: one run), enough to tell which
/// record the n-th added fetch was.
private struct SkippedRecords {
    private var runs: [ClosedRange<Int>] = []

    /// Notes `record`, larger than every number noted before.
    mutating func append(_ record: Int) {
        if let last = runs.last, last.upperBound + 1 == record {
            runs[runs.count - 1] = last.lowerBound...record
        } else {
            runs.append(record...record)
        }
    }

    /// The number of the record that was the `added`-th (from 1) not skipped.
    func record(ofAdded added: Int) -> Int {
        var record = added
        for run in runs {
            guard run.lowerBound <= record else { break }
            record += run.count
        }
        return record
    }
}


// The SQL of import.
extension HistorySQL {
    @_spi(Benchmarks) public static let importSession = """
        INSERT INTO session (id, started_at, source, host, process_id) VALUES (?, ?, ?, ?, 0)
        ON CONFLICT (id) DO NOTHING
        """

    /// An imported fetch, numbered by the import itself (`seq`, parameter
    /// 1, or NULL where SQLite gives the same number): the rows an import
    /// adds are exactly those above the largest `seq` before it.
    @_spi(Benchmarks) public static let importFetch = """
        INSERT INTO fetch (
            seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
            http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error, host,
            response_body, response_content_type, response_body_truncated
        )
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """

    /// The largest `seq` a fetch ever had, deleted or not: what an import
    /// numbers its rows above.
    @_spi(Benchmarks) public static let largestFetchSeq = """
        SELECT max(coalesce((SELECT max(seq) FROM fetch), 0), coalesce((SELECT seq FROM fetch_seq_high_water), 0))
        """
    static let fetchSeq = "SELECT seq FROM fetch WHERE id = ?"
    static let largestSeqInTable = "SELECT coalesce(max(seq), 0) FROM fetch"

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
}
