import CSQLite
import FetchHistoryModel

/// A prepared statement. Values are bound with `sqlite3_bind_*`, never spliced
/// into the SQL; rows are read by column index.
///
/// Statements are cached by their connection, so `bind` first resets the
/// statement and clears earlier bindings.
package final class Statement {
    let handle: OpaquePointer
    /// The SQL text, kept for error messages.
    package let sql: String
    let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(code: code, connection: connection, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to parameters 1, 2, ….
    func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .text(var text):
                // Bound with its byte count, so text holding NUL survives whole.
                code = text.withUTF8 { bytes in
                    sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
        }
    }

    /// Steps once: true when a row is ready to read, false when done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        case let code:
            let error = SQLiteError(code: code, connection: connection, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// True when running it cannot change the database (a query, or
    /// `BEGIN`/`COMMIT`).
    var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Releases the read lock a half-read statement may hold.
    func reset() {
        sqlite3_reset(handle)
    }
}

/// The current row of a statement. Only valid inside the closure it is
/// handed to: the next step overwrites it.
package struct Row {
    let handle: OpaquePointer

    package func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    package func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    package func optionalInt64(_ column: Int32) -> Int64? {
        // NULL reads as 0: only a 0 needs the second call that tells them
        // apart (most columns read are neither, an export reads millions).
        let value = int64(column)
        return value == 0 && isNull(column) ? nil : value
    }

    package func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's text as UTF-8 bytes, without making a String: valid only
    /// inside `body`.
    package func withUTF8<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let bytes = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }

    /// The column's text as UTF-8 bytes, as `withUTF8`, or nil for NULL.
    package func withOptionalUTF8<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        // NULL reads as a null pointer, as running out of memory does: only
        // then is the type asked.
        guard let bytes = sqlite3_column_text(handle, column) else {
            return isNull(column) ? nil : try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    package func optionalText(_ column: Int32) -> String? {
        withOptionalUTF8(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// A fetched value, by the type it was stored as: an integer is the
    /// number, text its JSON (the table's CHECK keeps it valid JSON).
    /// `integer` makes the value of an integer.
    func optionalFetchValue(_ column: Int32, integer: (Int64) -> FetchValue) -> FetchValue? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: nil
        case SQLITE_INTEGER: integer(int64(column))
        default: FetchValue(validJSON: text(column))
        }
    }
}
