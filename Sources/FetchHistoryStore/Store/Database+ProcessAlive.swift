import CSQLite
import FetchHistoryModel

extension Database {
    /// Registers `fetch_history_process_alive(host, boot_id, pid, start_ticks)`,
    /// which the queries use to tell running fetches from interrupted ones.
    func registerProcessAliveFunction() throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, "fetch_history_process_alive", 4, SQLITE_UTF8 | SQLITE_DIRECTONLY, nil,
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
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }
}
