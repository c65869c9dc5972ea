import CSQLite
import FetchHistoryModel
import FoundationEssentials

/// One connection to a SQLite database, owning its `sqlite3*`.
///
/// Not thread-safe, and not `Sendable`: `HistoryStore` owns one and hands it
/// to the closures of `read` and `write`, one at a time, on its own queue.
public final class Database {
    /// How a database file is opened.
    public enum Access: Sendable {
        /// Reads only; the file must exist.
        case readOnly
        /// Reads and writes; the file must exist.
        case readWrite
        /// Reads and writes, creating the file (mode 0600) if it is missing.
        case create
    }

    /// How a connection reaches the file and what SQLite keeps beside it:
    /// the history store chooses for its readers (`HistoryStore.init`).
    enum Reach {
        /// As SQLite opens any file: through the `-wal` and `-shm` beside
        /// it, made if they are missing.
        case throughSideFiles
        /// Through the `-wal` and `-shm` another user (the owner) made,
        /// which were there when `before` was taken: any this connection
        /// had to make itself are removed when it closes.
        case throughOthersSideFiles(before: DatabaseFile.SideFiles)
        /// The file alone, read as immutable (SQLite's `immutable=1`): no
        /// lock is taken and nothing is made beside it. Only for reading a
        /// WAL history that no connection has open; `of` is the file as it
        /// was then, to tell when it has changed.
        case snapshot(of: DatabaseFile.Signature?)
    }

    /// The path given to `init`, or `:memory:`.
    public let path: String
    public let access: Access
    let reach: Reach
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// True inside `readTransaction`: statements that write are refused.
    private var isReading = false
    private let lockWait: LockWait

    /// How long a statement waits for another connection's lock before
    /// failing with `SQLITE_BUSY`.
    package static let busyTimeoutMilliseconds: Int32 = 10_000
    /// How many times a write waits out the busy timeout before failing.
    static let busyRetries = 3

    /// How a connection waits for a lock another one holds: SQLite's busy
    /// timeout, then a pause before `writeTransaction` tries `BEGIN` again.
    package struct LockWait: Sendable {
        package var timeoutMilliseconds: Int32
        /// Blocks the store's own queue (never a caller's thread) for about that long.
        package var pause: @Sendable (_ microseconds: UInt32) -> Void

        package init(timeoutMilliseconds: Int32, pause: @escaping @Sendable (_ microseconds: UInt32) -> Void) {
            self.timeoutMilliseconds = timeoutMilliseconds
            self.pause = pause
        }

        package static let standard = LockWait(timeoutMilliseconds: busyTimeoutMilliseconds, pause: RetryPause.sleep)
    }

    /// Opens `path` (or `:memory:`) and sets the connection up: foreign
    /// keys, a busy timeout. Nothing is written: see `useWriteAheadLog()`.
    /// `HistoryStore` checks the file first (`DatabaseFile`).
    package convenience init(path: String, access: Access, lockWait: LockWait = .standard) throws(SQLiteError) {
        try self.init(path: path, access: access, reach: .throughSideFiles, lockWait: lockWait)
    }

    /// Opens `path` reached as `reach` says.
    init(path: String, access: Access, reach: Reach, lockWait: LockWait) throws(SQLiteError) {
        var flags = SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX
        switch access {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var name = path
        if case .snapshot = reach {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.access = access
        self.reach = reach
        self.lockWait = lockWait
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, lockWait.timeoutMilliseconds)
        csqlite_db_config_defensive(handle, 1)
        // Reading the schema is the first access to page 1: a damaged or
        // foreign file fails here, before anything is written to it.
        _ = try scalarInt64("SELECT count(*) FROM sqlite_schema")
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Switches a writable file to WAL with `synchronous=NORMAL`: readers
    /// never wait for the writer, and a commit costs no fsync. This writes
    /// the file's header, so call it only once the file is known to be ours.
    package func useWriteAheadLog() throws(SQLiteError) {
        guard access != .readOnly, path != ":memory:" else { return }
        // journal_mode answers with a row naming the mode it set.
        _ = try scalarText("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
        if case .throughOthersSideFiles(let before) = reach {
            DatabaseFile.removeSideFiles(of: path, madeSince: before)
        }
    }

    /// `path` as the path of a `file:` URI: "the characters '?', '#' and '%'
    /// ... must be escaped" (sqlite.org/uri.html); the rest is taken as it is.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    // MARK: - Statements

    /// The cached prepared statement for `sql`, bound to `values`.
    func statement(_ sql: String, _ values: [SQLValue]) throws(SQLiteError) -> Statement {
        let statement = try prepare(sql)
        try statement.bind(values)
        return statement
    }

    /// The cached prepared statement for `sql`. Loops that run one statement
    /// many times (an import) keep it, rather than finding it by its text
    /// for every row.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        let statement: Statement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try Statement(connection: handle, sql: sql)
            statements[sql] = statement
        }
        try refuseWriteInRead(statement)
        return statement
    }

    /// Throws `SQLITE_READONLY` for a statement that would change the file
    /// while a read transaction is open.
    private func refuseWriteInRead(_ statement: Statement) throws(SQLiteError) {
        guard isReading, !statement.isReadOnly else { return }
        throw SQLiteError(code: SQLITE_READONLY, message: "a read cannot change the history", sql: statement.sql)
    }

    /// Runs one statement to completion.
    package func execute(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) {
        try execute(prepare(sql), values)
    }

    /// Runs a prepared statement to completion with `values`.
    package func execute(_ statement: Statement, _ values: [SQLValue]) throws(SQLiteError) {
        try refuseWriteInRead(statement)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a script of several statements with no parameters (a migration).
    package func executeScript(_ sql: String) throws(SQLiteError) {
        guard !isReading else { throw SQLiteError(code: SQLITE_READONLY, message: "a read cannot change the history", sql: sql) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Calls `body` with each row of `sql`, as SQLite steps to it: nothing is
    /// collected, so memory stays flat however many rows there are.
    package func forEachRow(
        _ sql: String, _ values: [SQLValue] = [], _ body: (Row) throws -> Void
    ) throws {
        let statement = try statement(sql, values)
        defer { statement.reset() }
        while try statement.step() {
            try body(Row(handle: statement.handle))
        }
    }

    /// Every row of `sql`, decoded by `decode`.
    package func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ decode: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow(sql, values) { result.append(try decode($0)) }
        return result
    }

    /// The first row of `sql` decoded, or nil when there is none.
    package func firstRow<T>(_ sql: String, _ values: [SQLValue] = [], _ decode: (Row) throws -> T) throws -> T? {
        let statement = try statement(sql, values)
        defer { statement.reset() }
        return try statement.step() ? decode(Row(handle: statement.handle)) : nil
    }

    /// The integer in the first column of the first row (0 when there is no row).
    package func scalarInt64(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64 {
        let statement = try statement(sql, values)
        defer { statement.reset() }
        return try statement.step() ? sqlite3_column_int64(statement.handle, 0) : 0
    }

    /// The text in the first column of the first row, or nil.
    package func scalarText(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        let statement = try statement(sql, values)
        defer { statement.reset() }
        return try statement.step() ? Row(handle: statement.handle).optionalText(0) : nil
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    // MARK: - Transactions

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: the write lock is
    /// taken at the start (waiting up to the busy timeout), so two writers
    /// never deadlock upgrading read locks. Rolls back if `body` throws.
    ///
    /// If the lock is still taken after the busy timeout, `BEGIN` is retried
    /// with growing pauses (nothing has been done yet, so a retry is safe)
    /// before giving up with `SQLITE_BUSY`: a write is delayed, never dropped
    /// silently.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        var pause: UInt32 = 50_000
        var attempt = 1
        while true {
            do {
                try execute("BEGIN IMMEDIATE")
                break
            } catch {
                guard error.isBusy, attempt < Self.busyRetries else { throw error }
                attempt += 1
                lockWait.pause(pause + UInt32.random(in: 0...pause))
                pause = min(pause * 2, 1_000_000)
            }
        }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // After some errors (SQLITE_FULL, SQLITE_IOERR) SQLite has
            // already rolled back; a second ROLLBACK then fails harmlessly.
            if sqlite3_get_autocommit(handle) == 0 {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// Runs `body` in a read transaction, so every query in it sees one
    /// snapshot of the database.
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        // A read cannot write, so nothing in `body` can skip the invariants
        // that only `write`'s operations keep: every statement it runs must
        // be one SQLite calls read-only. Checked per statement rather than
        // with `PRAGMA query_only`, whose every change expires all prepared
        // statements: each read made the next writes compile their SQL again
        // (over half of a `fetch`'s instructions, measured with callgrind).
        try execute("BEGIN DEFERRED")
        isReading = true
        defer {
            isReading = false
            try? execute("COMMIT")
        }
        return try body()
    }
}
