import CSQLite
import FetchHistoryModel

extension Database {
    /// Registers `fetch_history_contains(text, column, …)`: 1 when any
    /// column's text contains `text`, ignoring case as `TextSearch` defines
    /// it; NULL columns never match; an integer is searched as its decimal
    /// text. The folded `text` is kept as SQLite's auxiliary data of its
    /// argument, so it is folded once per statement, not once per row.
    func registerTextSearchFunction() throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, "fetch_history_contains", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
            { context, count, arguments in
                guard let arguments, count >= 1, let text = sqlite3_value_text(arguments[0]) else {
                    return sqlite3_result_null(context)
                }
                let needle: TextSearch.Needle
                if let saved = sqlite3_get_auxdata(context, 0) {
                    needle = Unmanaged<TextSearch.Needle>.fromOpaque(saved).takeUnretainedValue()
                } else {
                    needle = TextSearch.Needle(String(cString: text))
                    // SQLite releases it (possibly at once) through the destructor;
                    // `needle` keeps its own reference for this call.
                    sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(needle).toOpaque()) { saved in
                        if let saved { Unmanaged<TextSearch.Needle>.fromOpaque(saved).release() }
                    }
                }
                for index in 1..<Int(count) {
                    // sqlite3_value_text first, then _bytes: "call sqlite3_value_text()
                    // first … then sqlite3_value_bytes()" (sqlite.org/c3ref/value_blob.html).
                    guard let bytes = sqlite3_value_text(arguments[index]) else { continue }
                    let length = Int(sqlite3_value_bytes(arguments[index]))
                    if needle.isFound(inUTF8: UnsafeBufferPointer(start: bytes, count: length)) {
                        return sqlite3_result_int(context, 1)
                    }
                }
                sqlite3_result_int(context, 0)
            },
            nil, nil, nil
        )
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }
}
