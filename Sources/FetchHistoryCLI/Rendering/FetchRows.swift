import FetchHistory
import Synchronization

/// What `fetch` prints for each fetch as it is recorded: a row of the table,
/// or a JSON record, flushed at once. Sendable: the rows are printed on the
/// recording's executor, and the command ends the output afterwards.
final class FetchRows: Sendable {
    private let state: Mutex<State>

    private struct State {
        var records: FetchWriter
        let table: FetchTable?
        /// Why printing stopped, once it has: nothing is printed after it.
        var failure: (any Error)?
    }

    /// Rows of `table` on standard output, or, without a table, JSON records.
    init(table: sending FetchTable?, json: Bool) throws {
        var records = FetchWriter(output: .standardOutput(), format: json ? .json : .jsonl)
        if table == nil { try records.begin() }
        state = Mutex(State(records: records, table: table))
    }

    /// Prints `fetch`; false once the output has failed (now or before).
    func print(_ fetch: Fetch) -> Bool {
        state.withLock { state in
            guard state.failure == nil else { return false }
            do {
                if let table = state.table {
                    try state.records.output.write(table.row(fetch) + "\n")
                } else {
                    try state.records.write(fetch)
                }
                try state.records.flush()
                return true
            } catch {
                state.failure = error
                return false
            }
        }
    }

    /// Why printing failed, if it did.
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// Closes the JSON array, if any, unless printing failed.
    func end() throws {
        try state.withLock { state in
            guard state.table == nil, state.failure == nil else { return }
            do { try state.records.end() } catch { state.failure = error; throw error }
        }
    }
}
