import CSQLite
import FetchHistoryModel

extension Database {
    /// Registers `fetch_history_problem(outcome, http_status, error)`: the
    /// key of an ended fetch's problem (`Problem.key`), NULL for one that
    /// succeeded or has not ended. What `--problem` compares an error's key
    /// with: a problem is computed, never stored.
    func registerProblemFunction() throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, "fetch_history_problem", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
            { context, _, arguments in
                guard let arguments, let outcome = sqlite3_value_text(arguments[0]) else { return sqlite3_result_null(context) }
                let status = FetchStatus(rawValue: String(cString: outcome)) ?? .failed
                let httpStatus = sqlite3_value_type(arguments[1]) == SQLITE_NULL ? nil : Int(truncatingIfNeeded: sqlite3_value_int64(arguments[1]))
                // With its length, as a row's text is read: an error may hold a NUL.
                let error = sqlite3_value_text(arguments[2]).map { bytes in
                    String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(arguments[2]))), as: UTF8.self)
                }
                guard let key = Problem.key(outcome: status, error: error, httpStatus: httpStatus) else {
                    return sqlite3_result_null(context)
                }
                sqlite3_result_text(context, key, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            },
            nil, nil, nil
        )
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }
}
