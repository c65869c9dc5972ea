import CSQLite
import FetchHistoryModel

/// A failure reported by SQLite, with what is needed to act on it.
///
/// The bound values are never kept: they may be private (a URL's token, a
/// user's value). The SQL text is kept because it says which operation failed.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_PRIMARYKEY` (1555).
    public var code: Int32
    /// SQLite's own message (`sqlite3_errmsg`), or `sqlite3_errstr` of the code.
    public var message: String
    /// The statement that failed, if the failure came from one.
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code, e.g. `SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`.
    public var primaryCode: Int32 { code & 0xFF }

    /// True when another connection held a lock past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
}

extension Error {
    /// True for a `SQLiteError` that means another connection held a lock.
    var isBusy: Bool { (self as? SQLiteError)?.isBusy ?? false }
}

extension SQLiteError {

    public var description: String {
        var text = "\(message) (SQLite code \(code))"
        if let sql { text += " in `\(sql)`" }
        return text
    }

    /// The error the connection last reported for `code`.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // sqlite3_extended_errcode only describes the last call on this
        // connection; keep the caller's code when they disagree.
        self.init(code: extended & 0xFF == code & 0xFF ? extended : code, message: message, sql: sql)
    }
}
