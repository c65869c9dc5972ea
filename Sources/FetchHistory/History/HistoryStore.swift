import CSQLite
import FoundationEssentials
import Glibc
import Synchronization

/// The history of fetches, in one SQLite database.
///
/// Every SQL statement the project runs outside `Migrations/` is in this file.
/// The store is safe to share between tasks: calls are serialised on one
/// connection, and each write is one short `BEGIN IMMEDIATE` transaction so
/// several processes can record into the same file.
///
/// ```swift
/// let store = try HistoryStore(path: "history.sqlite", access: .create)
/// let session = try store.beginSession(source: "random")
/// let recent = try store.fetches(matching: HistoryFilter(status: .failed), limit: 20)
/// ```
public final class HistoryStore: @unchecked Sendable {
    // Unchecked: `database` is only touched inside `lock`.
    private let database: Database
    private let lock = Mutex(())
    /// The path the store was opened with, or `:memory:`.
    public let path: String

    /// Opens (and, if `access` allows, creates or upgrades) the database at
    /// `path`. A file that is not a SQLite database, belongs to another
    /// application or to a newer fetch-history is refused and left untouched.
    public init(path: String, access: Database.Access, migrator: Migrator = Migrator()) throws(HistoryError) {
        do {
            var database = try Database(path: path, access: access)
            if access == .readOnly {
                do {
                    try migrator.verify(database)
                } catch MigrationError.olderSchema(let found, _) where found == 0 {
                    // An empty file: reading must not turn it into a database.
                    throw MigrationError.noHistory
                } catch MigrationError.olderSchema where Self.isWritable(path) {
                    database = try Database(path: path, access: .readWrite)
                    try migrator.migrate(database)
                    try database.useWriteAheadLog()
                }
            } else {
                // Refuses foreign and newer files before anything is written.
                try migrator.migrate(database)
                try database.useWriteAheadLog()
            }
            try Self.registerFunctions(on: database)
            self.database = database
            self.path = path
        } catch let error as SQLiteError where error.primaryCode == SQLITE_READONLY {
            throw .cannotOpen(path: path, reason: error.message)
        } catch let error as SQLiteError {
            throw .cannotOpen(path: path, reason: "cannot be opened: \(error.message)")
        } catch let error as MigrationError {
            throw .cannotOpen(path: path, reason: error.description)
        } catch {
            throw .cannotOpen(path: path, reason: "cannot be opened: \(error)")
        }
    }

    /// A new, empty history that lives in memory: for tests and previews.
    public static func inMemory() throws(HistoryError) -> HistoryStore {
        try HistoryStore(path: ":memory:", access: .create)
    }

    private static func isWritable(_ path: String) -> Bool {
        var info = stat()
        return access(path, W_OK) == 0 && stat(path, &info) == 0 && info.st_mode & S_IWUSR != 0
    }

    /// Runs `body` on the connection, turning SQLite's errors into
    /// `HistoryError.sqlite`; other errors (the caller's own) pass through.
    private func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try lock.withLock { _ in try body(database) }
        } catch let error as SQLiteError where error.isBusy {
            throw HistoryError.busy(path: path)
        } catch let error as SQLiteError {
            throw HistoryError.sqlite(path: path, error)
        }
    }

    // MARK: - Recording

    /// Records the start of a session: call once per run, before its fetches.
    @discardableResult
    public func beginSession(
        id: UUID = UUID(), source: String, at startedAt: Timestamp = .now,
        process: ProcessIdentity = .current
    ) throws -> Session {
        let session = Session(id: id, startedAt: startedAt, source: source, process: process)
        try withDatabase { database in
            try database.writeTransaction {
                try database.execute(SQL.insertSession, [
                    .text(session.id.lowercased), .integer(startedAt.millisecondsSince1970), .text(source),
                    .text(process.host), .integer(Int64(process.processID)), .text(process.bootID),
                    .integer(process.startTicks),
                ])
            }
        }
        return session
    }

    /// Records that a fetch was tapped and started; it shows as running
    /// until its end is recorded.
    public func recordStart(
        of id: UUID, in session: Session, at startedAt: Timestamp, timeout: Duration? = nil
    ) throws {
        try withDatabase { database in
            try database.writeTransaction {
                try database.execute(SQL.insertFetch, [
                    .text(id.lowercased), .text(session.id.lowercased), .text(session.source),
                    .integer(startedAt.millisecondsSince1970), .integer(timeout?.wholeMilliseconds),
                ])
            }
        }
    }

    /// Records how a running fetch ended. Fails if the fetch is unknown or
    /// already ended, so each fetch ends exactly once.
    public func recordEnd(
        of id: UUID, at endedAt: Timestamp, duration: Duration, outcome: FetchOutcome,
        cause: FetchEnd.Cause, response: SourceResponse? = nil
    ) throws {
        let columns = StoredOutcome(outcome)
        try withDatabase { database in
            try database.writeTransaction {
                try database.execute(SQL.endFetch, [
                    .integer(endedAt.millisecondsSince1970), .integer(duration.wholeMilliseconds),
                    .text(columns.outcome), .text(columns.cancelReason), .integer(columns.value),
                    .text(columns.error), .integer(response?.status), .integer(response?.bytes),
                    .text(cause.name), .integer(cause.answerValue), .text(cause.answerError),
                    .text(id.lowercased),
                ])
                if database.changes != 1 { throw HistoryError.notRunning(id) }
            }
        }
    }

    /// Adds fetches read by `produce` in one transaction: all or nothing.
    /// Fetches whose id is already in the history are skipped, so importing
    /// the same file twice changes nothing; an id used twice within the
    /// import is refused (`RepeatedFetchID`). Sessions the history lacks are
    /// created with no recorder process (their running fetches read as
    /// interrupted: nothing in this database will ever end them). Memory
    /// stays flat however many fetches come.
    ///
    /// ```swift
    /// let summary = try store.importFetches { insert in
    ///     try FetchRecordReader(descriptor: STDIN_FILENO).forEach(insert)
    /// }
    /// ```
    public func importFetches(
        _ produce: (_ insert: (Fetch) throws -> Void) throws -> Void
    ) throws -> ImportSummary {
        try withDatabase { database in
            try database.writeTransaction {
                var batch = try ImportBatch(database)
                try produce { fetch in try batch.insert(fetch) }
                return try batch.finish()
            }
        }
    }

    // MARK: - Reading

    /// Fetches matching `filter`, newest first; at most `limit` when given.
    /// Fetches started in the same millisecond come in reverse recording order.
    public func fetches(matching filter: HistoryFilter = .all, limit: Int? = nil) throws -> [Fetch] {
        let (sql, values) = SQL.newestFirst(filter, limit: limit)
        return try withDatabase { database in try database.rows(sql, values, SQL.decodeFetch) }
    }

    /// The plan SQLite chooses for `fetches(matching:)`, one line per step:
    /// lets tests prove a listing is served by an index.
    func queryPlan(forFetchesMatching filter: HistoryFilter) throws -> [String] {
        let (sql, values) = SQL.newestFirst(filter, limit: 20)
        return try withDatabase { database in try database.rows("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) } }
    }

    /// Calls `body` with each fetch matching `filter`, oldest first (ties in
    /// recording order, which an import keeps), reading
    /// one row at a time so memory stays flat for any history size.
    public func forEachFetch(
        matching filter: HistoryFilter = .all, _ body: (Fetch) throws -> Void
    ) throws {
        let (conditions, values) = SQL.conditions(for: filter)
        let sql = "SELECT \(SQL.fetchColumns) FROM fetch\(conditions) ORDER BY started_at, rowid"
        try withDatabase { database in
            try database.readTransaction {
                try database.forEachRow(sql, values) { row in try body(SQL.decodeFetch(row)) }
            }
        }
    }

    /// The fetch whose id is `prefix` or starts with it.
    public func fetch(idPrefix prefix: String) throws -> Fetch {
        let (low, high) = try SQL.idRange(prefix)
        let matches = try withDatabase { database in
            try database.rows(SQL.fetchByIDRange, [.text(low), .text(high)], SQL.decodeFetch)
        }
        return try Self.unique(matches, kind: "fetch", prefix: prefix)
    }

    /// The session whose id is `prefix` or starts with it.
    public func session(idPrefix prefix: String) throws -> Session {
        let (low, high) = try SQL.idRange(prefix)
        let matches = try withDatabase { database in
            try database.rows(SQL.sessionByIDRange, [.text(low), .text(high)], SQL.decodeSession)
        }
        return try Self.unique(matches, kind: "session", prefix: prefix)
    }

    /// The session started last, or nil for an empty history.
    public func newestSession() throws -> Session? {
        try withDatabase { database in try database.firstRow(SQL.newestSession, [], SQL.decodeSession) }
    }

    /// The session with `id`, or nil.
    public func session(id: UUID) throws -> Session? {
        try withDatabase { database in
            try database.firstRow(SQL.sessionByID, [.text(id.lowercased)], SQL.decodeSession)
        }
    }

    /// Counts per status and latency percentiles of succeeded fetches.
    public func statistics(matching filter: HistoryFilter = .all) throws -> HistoryStatistics {
        let (conditions, values) = SQL.conditions(for: filter)
        var others = filter
        others.status = nil
        let (otherConditions, otherValues) = SQL.conditions(for: others)
        return try withDatabase { database in
            try database.readTransaction {
                var counts: [FetchStatus: Int] = [:]
                // Counted from the outcome index alone; the few running rows
                // are then split into running and interrupted on their own,
                // so the count never reads the table.
                try database.forEachRow("SELECT outcome, count(*) FROM fetch\(conditions) GROUP BY 1", values) { row in
                    guard let outcome = row.optionalText(0) else { return }
                    counts[SQL.decodeStatus(outcome: outcome, isAlive: nil), default: 0] += Int(row.int64(1))
                }
                try database.forEachRow(
                    "SELECT \(SQL.isAlive), count(*) FROM fetch\(SQL.and(conditions, "outcome IS NULL")) GROUP BY 1", values
                ) { row in
                    counts[SQL.decodeStatus(outcome: nil, isAlive: row.optionalInt64(0)), default: 0] += Int(row.int64(1))
                }
                var latency: HistoryStatistics.Latency?
                let succeededCount = counts[.succeeded, default: 0]
                if succeededCount > 0, filter.status == nil || filter.status == .succeeded {
                    latency = try Self.latency(
                        of: succeededCount, in: database,
                        sql: SQL.succeededDurations(otherConditions), values: otherValues
                    )
                }
                return HistoryStatistics(total: counts.values.reduce(0, +), counts: counts, latency: latency)
            }
        }
    }

    /// Nearest-rank p50/p90/p99 and the maximum of `count` durations that
    /// `sql` returns in ascending order (from the partial index on succeeded
    /// durations): one pass, picking the ranks as they go by, nothing stored.
    private static func latency(
        of count: Int, in database: Database, sql: String, values: [SQLValue]
    ) throws -> HistoryStatistics.Latency {
        let ranks = [50, 90, 99].map { ($0 * count + 99) / 100 }
        var picked: [Int64] = []
        var rank = 0
        var last: Int64 = 0
        try database.forEachRow(sql, values) { row in
            rank += 1
            last = row.int64(0)
            if picked.count < ranks.count, rank == ranks[picked.count] { picked.append(last) }
        }
        while picked.count < ranks.count { picked.append(last) }
        return HistoryStatistics.Latency(p50: picked[0], p90: picked[1], p99: picked[2], max: last)
    }

    private static func unique<T: Identifiable>(
        _ matches: [T], kind: String, prefix: String
    ) throws(HistoryError) -> T where T.ID == UUID {
        guard let first = matches.first else { throw .notFound(kind: kind, prefix: prefix) }
        guard matches.count == 1 else {
            throw .ambiguous(kind: kind, prefix: prefix, candidates: matches.map(\.id.lowercased))
        }
        return first
    }

    /// Every text value in every table, joined: lets tests prove a secret
    /// was never written anywhere.
    func allText() throws -> String {
        try withDatabase { database in
            let tables = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.text(0) }
            var text: [String] = []
            for table in tables {
                // Table names come from sqlite_schema itself, not from input.
                try database.forEachRow("SELECT * FROM \"\(table)\"") { row in
                    for column in 0..<sqlite3_column_count(row.handle) { text.append(row.optionalText(column) ?? "") }
                }
            }
            return text.joined(separator: "\n")
        }
    }

    // MARK: - SQL functions

    /// Registers `fetch_history_process_alive(host, boot_id, pid, start_ticks)`,
    /// which the queries use to tell running fetches from interrupted ones.
    private static func registerFunctions(on database: Database) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            database.handle, "fetch_history_process_alive", 4, SQLITE_UTF8 | SQLITE_DIRECTONLY, nil,
            { context, _, arguments in
                guard let arguments else { return sqlite3_result_null(context) }
                func text(_ index: Int) -> String? {
                    sqlite3_value_text(arguments[index]).map { String(cString: $0) }
                }
                func integer(_ index: Int) -> Int64? {
                    sqlite3_value_type(arguments[index]) == SQLITE_NULL ? nil : sqlite3_value_int64(arguments[index])
                }
                let process = ProcessIdentity(
                    host: text(0) ?? "", processID: Int32(truncatingIfNeeded: integer(2) ?? 0),
                    bootID: text(1), startTicks: integer(3)
                )
                sqlite3_result_int(context, process.isAlive ? 1 : 0)
            },
            nil, nil, nil
        )
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: database.handle) }
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
        insertSession = try database.prepare(SQL.importSession)
        insertFetch = try database.prepare(SQL.importFetch)
        rowidBefore = try database.scalarInt64(SQL.largestFetchRowid)
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
            .integer(fetch.script?.end?.cause.answerValue), .text(fetch.script?.end?.cause.answerError),
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
        let rowid = try database.scalarInt64(SQL.fetchRowid, [.text(text)])
        if rowid > rowidBefore {
            throw RepeatedFetchID(id: id, firstRecord: skipped.record(ofAdded: Int(rowid - rowidBefore)))
        }
        if !hasSkippedTable {
            try database.execute(SQL.createSkippedIDs)
            hasSkippedTable = true
        }
        try database.execute(SQL.insertSkippedID, [.text(text), .integer(Int64(record))])
        if database.changes == 0 {
            let first = try database.scalarInt64(SQL.skippedIDRecord, [.text(text)])
            throw RepeatedFetchID(id: id, firstRecord: Int(first))
        }
        skipped.append(record)
        summary.skipped += 1
    }

    /// Cleans up before the commit (a rollback takes the table with it).
    func finish() throws -> ImportSummary {
        if hasSkippedTable { try database.execute(SQL.dropSkippedIDs) }
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

/// The outcome as the `fetch` table's columns hold it.
private struct StoredOutcome {
    var outcome: String
    var cancelReason: String?
    var value: Int64?
    var error: String?

    init(_ outcome: FetchOutcome) {
        self.outcome = outcome.status.rawValue
        switch outcome {
        case .succeeded(let value): self.value = Int64(value)
        case .failed(let message): error = message
        case .cancelled(let reason): cancelReason = reason.rawValue
        case .timedOut, .interrupted: break
        }
    }
}

/// The store's SQL, in one place.
private enum SQL {
    static let insertSession = """
        INSERT INTO session (id, started_at, source, host, process_id, boot_id, process_started)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// A fetch starts when it is tapped: `started_at` and `tapped_at` are the
    /// same moment, kept apart so a replay can tell if either was changed.
    static let insertFetch = """
        INSERT INTO fetch (id, session_id, source, started_at, tapped_at, timeout_ms) VALUES (?1, ?2, ?3, ?4, ?4, ?5)
        """

    static let endFetch = """
        UPDATE fetch SET ended_at = ?1, duration_ms = ?2, outcome = ?3, cancel_reason = ?4, value = ?5, error = ?6,
            http_status = ?7, response_bytes = ?8, ended_by = ?9, ended_by_at = ?1, answer_value = ?10, answer_error = ?11
        WHERE id = ?12 AND outcome IS NULL
        """

    static let importSession = """
        INSERT INTO session (id, started_at, source, host, process_id) VALUES (?, ?, ?, '', 0)
        ON CONFLICT (id) DO NOTHING
        """

    static let importFetch = """
        INSERT INTO fetch (
            id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
            http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error
        )
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """

    static let largestFetchRowid = "SELECT max(rowid) FROM fetch"
    static let fetchRowid = "SELECT rowid FROM fetch WHERE id = ?"

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

    static func newestFirst(_ filter: HistoryFilter, limit: Int?) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        return (
            "SELECT \(fetchColumns) FROM fetch\(conditions) ORDER BY started_at DESC, rowid DESC LIMIT ?",
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

    static func decodeStatus(outcome: String?, isAlive: Int64?) -> FetchStatus {
        guard let outcome else { return isAlive == 0 ? .interrupted : .running }
        return FetchStatus(rawValue: outcome) ?? .failed
    }

    static func decodeFetch(_ row: Row) throws -> Fetch {
        let outcome: FetchOutcome? = switch decodeStatus(outcome: row.optionalText(6), isAlive: row.optionalInt64(10)) {
        case .running: nil
        case .succeeded: .succeeded(Int(row.int64(8)))
        case .failed: .failed(row.optionalText(9) ?? "")
        case .cancelled: .cancelled(CancelReason(rawValue: row.text(7)) ?? .user)
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
        return Fetch(
            id: try uuid(row, 0), sessionID: try uuid(row, 1), source: row.text(2),
            startedAt: Timestamp(millisecondsSince1970: row.int64(3)),
            endedAt: row.optionalInt64(4).map(Timestamp.init(millisecondsSince1970:)),
            durationMilliseconds: row.optionalInt64(5), outcome: outcome,
            response: row.optionalInt64(11).map { SourceResponse(status: Int($0), bytes: Int(row.optionalInt64(12) ?? 0)) },
            script: decodeScript(row)
        )
    }

    /// Columns 13…18: the script, if the fetch was recorded with one.
    static func decodeScript(_ row: Row) -> FetchScript? {
        guard let tappedAt = row.optionalInt64(13) else { return nil }
        var end: FetchScript.End?
        if let name = row.optionalText(15), let at = row.optionalInt64(16),
           let cause = FetchEnd.Cause(name: name, value: row.optionalInt64(17).map { Int($0) }, error: row.optionalText(18)) {
            end = FetchScript.End(cause: cause, at: Timestamp(millisecondsSince1970: at))
        }
        return FetchScript(
            tappedAt: Timestamp(millisecondsSince1970: tappedAt), timeoutMilliseconds: row.optionalInt64(14), end: end
        )
    }

    static func decodeSession(_ row: Row) throws -> Session {
        Session(
            id: try uuid(row, 0), startedAt: Timestamp(millisecondsSince1970: row.int64(1)),
            source: row.text(2),
            process: ProcessIdentity(
                host: row.text(3), processID: Int32(truncatingIfNeeded: row.int64(4)),
                bootID: row.optionalText(5), startTicks: row.optionalInt64(6)
            )
        )
    }

    static func uuid(_ row: Row, _ column: Int32) throws -> UUID {
        guard let id = row.withUTF8(column, UUID.init(utf8:)) else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "'\(row.text(column))' in the history is not a UUID")
        }
        return id
    }
}
