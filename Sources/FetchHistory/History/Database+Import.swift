import FoundationEssentials

// Import: fetches read from an export, added in the caller's `HistoryStore.write`.
extension Database {
    /// Adds fetches read by `produce`, inside the caller's write transaction:
    /// all or nothing. Fetches whose id is already in the history are
    /// skipped, so importing the same file twice changes nothing; an id used
    /// twice within the import is refused (`RepeatedFetchID`). Sessions the
    /// history lacks are created with no recorder process (their running
    /// fetches read as interrupted: nothing in this database will ever end
    /// them). Memory stays flat however many fetches come.
    ///
    /// ```swift
    /// let summary = try store.write { db in
    ///     try db.importFetches { insert in try FetchRecordReader(descriptor: STDIN_FILENO).forEach(insert) }
    /// }
    /// ```
    public func importFetches(_ produce: (_ insert: (Fetch) throws -> Void) throws -> Void) throws -> ImportSummary {
        var batch = try ImportBatch(self)
        try produce { fetch in try batch.insert(fetch) }
        return try batch.finish()
    }
}

/// One import in progress. An id used twice within the import is told
/// from one the history already had without keeping the import's ids in
/// memory: SQLite's own index finds the row the id is taken by, and its
/// rowid says whether this import added it. Only skipped ids are noted, in
/// a temporary table, so a re-import stays flat too.
private struct ImportBatch {
    private let database: Database
    private let insertSession: Statement
    private let insertFetch: Statement
    /// "If no ROWID is specified on the insert […] the usual algorithm is to
    /// give the newly created row a ROWID that is one larger than the largest
    /// ROWID in the table prior to the insert" (sqlite.org/autoinc.html): the
    /// import's rows are the ones above this, the n-th added at `+ n`.
    private let rowidBefore: Int64
    private var summary = ImportSummary(added: 0, skipped: 0)
    /// The number of the fetch being inserted, from 1.
    private var record = 0
    private var sessions: Set<UUID> = []
    private var skipped = SkippedRecords()
    private var hasSkippedTable = false

    init(_ database: Database) throws {
        self.database = database
        insertSession = try database.prepare(HistorySQL.importSession)
        insertFetch = try database.prepare(HistorySQL.importFetch)
        rowidBefore = try database.scalarInt64(HistorySQL.largestFetchRowid)
    }

    mutating func insert(_ fetch: Fetch) throws {
        record += 1
        if sessions.insert(fetch.sessionID).inserted {
            try database.execute(insertSession, [
                .text(fetch.sessionID.lowercased), .integer(fetch.startedAt.millisecondsSince1970), .text(fetch.source),
            ])
        }
        let columns = fetch.outcome.map(StoredOutcome.init)
        try database.execute(insertFetch, [
            .text(fetch.id.lowercased), .text(fetch.sessionID.lowercased), .text(fetch.source),
            .integer(fetch.startedAt.millisecondsSince1970), .integer(fetch.endedAt?.millisecondsSince1970),
            .integer(fetch.durationMilliseconds), .text(columns?.outcome), .text(columns?.cancelReason),
            .integer(columns?.value), .text(columns?.error), .integer(fetch.response?.status),
            .integer(fetch.response?.bytes), .integer(fetch.script?.tappedAt.millisecondsSince1970),
            .integer(fetch.script?.timeoutMilliseconds), .text(fetch.script?.end?.cause.name),
            .integer(fetch.script?.end?.at.millisecondsSince1970),
            .integer(fetch.script?.end?.cause.answerValue?.integer), .text(fetch.script?.end?.cause.answerError),
        ])
        if database.changes == 1 {
            summary.added += 1
        } else {
            try skip(fetch.id)
        }
    }

    /// The id is taken: by a fetch this import added, by one it skipped, or
    /// by one the history had (skipped, and noted).
    private mutating func skip(_ id: UUID) throws {
        let text = id.lowercased
        let rowid = try database.scalarInt64(HistorySQL.fetchRowid, [.text(text)])
        if rowid > rowidBefore {
            throw RepeatedFetchID(id: id, firstRecord: skipped.record(ofAdded: Int(rowid - rowidBefore)))
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

    /// Cleans up before the commit (a rollback takes the table with it).
    func finish() throws -> ImportSummary {
        if hasSkippedTable { try database.execute(HistorySQL.dropSkippedIDs) }
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

