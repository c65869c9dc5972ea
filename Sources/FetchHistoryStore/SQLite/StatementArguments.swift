import CSQLite
@_spi(Bytes) import FetchHistoryModel
import FoundationEssentials

/// The values of one run of a statement that runs once per row (an import's
/// INSERT), kept from row to row so that binding a row allocates nothing:
/// text goes into one reused buffer that SQLite reads in place.
///
/// Binding an array of `SQLValue`s copied every text value into memory
/// SQLite allocated and freed again for each row, and allocated the array:
/// 11% of an import's instructions (callgrind, 100k fetches), a third of
/// what parsing the JSON costs.
///
/// ```swift
/// arguments.removeAll()
/// arguments.append(id)
/// arguments.append(startedAt)
/// try statement.run(first: seq, arguments, slots: 0..<2)
/// ```
struct StatementArguments: Sendable {
    fileprivate enum Slot {
        case null
        case integer(Int64)
        case text(start: Int, count: Int)
    }

    fileprivate var slots: [Slot] = []
    fileprivate var text: [UInt8] = []

    /// Makes room for `rows` rows of `valuesPerRow` values each, and for
    /// their text at the size an imported fetch's usually has.
    mutating func reserveCapacity(rows: Int, valuesPerRow: Int) {
        slots.reserveCapacity(rows * valuesPerRow)
        text.reserveCapacity(rows * Self.usualTextBytesPerRow)
    }

    /// About the text of an imported fetch: two ids (72 bytes), its source,
    /// host and outcome, a value or an error.
    private static let usualTextBytesPerRow = 128

    /// Forgets the last row's values, keeping the memory.
    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    /// The next parameter: `value`, or NULL.
    mutating func append(_ value: Int64?) {
        slots.append(value.map { .integer($0) } ?? .null)
    }

    /// The next parameter: a fetched value as the history stores it (see
    /// `SQLValue.value(_:)`), or NULL.
    mutating func append(_ value: FetchValue?) {
        switch SQLValue.value(value) {
        case .null: slots.append(.null)
        case .integer(let integer): append(integer)
        case .text(let json): append(json)
        }
    }

    /// The next parameter: `value`, or NULL.
    mutating func append(_ value: String?) {
        guard var string = value else { return slots.append(.null) }
        let start = text.count
        // A native string's bytes are contiguous: one copy, not a walk of
        // its UTF8View.
        string.withUTF8 { text.append(contentsOf: $0) }
        slots.append(.text(start: start, count: text.count - start))
    }

    /// The next parameter: `id` in its lower-case form, written straight
    /// into the buffer (no String made).
    mutating func append(_ id: UUID) {
        let start = text.count
        text.write(room: 36) { id.appendLowercased(to: &$0) }
        slots.append(.text(start: start, count: 36))
    }
}

extension Statement {
    /// Runs the statement to its end with `first`, or NULL, bound to
    /// parameter 1 and the values in `slots` of `arguments` (one row of
    /// several) to the parameters after it, in order.
    ///
    /// Text is bound with `SQLITE_STATIC`, which tells SQLite "that the
    /// content pointer is constant and will never change"
    /// (sqlite.org/c3ref/bind_blob.html): here, for as long as this call
    /// lasts.
    func run(first: Int64?, _ arguments: StatementArguments, slots: Range<Int>) throws(SQLiteError) {
        // Every parameter is bound again on each run, and a statement is
        // only ever stepped after all of its parameters were bound (here, or
        // by `bind`, which clears them first): the pointers into the buffer
        // left bound after this returns are never read. Clearing them cost
        // a tenth of an import's binding.
        precondition(1 + slots.count == Int(sqlite3_bind_parameter_count(handle)), "a parameter left unbound")
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        let code = if let first { sqlite3_bind_int64(handle, 1, first) } else { sqlite3_bind_null(handle, 1) }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
        try arguments.text.withUnsafeBufferPointer { (text) throws(SQLiteError) in
            for (offset, slot) in arguments.slots[slots].enumerated() {
                let index = Int32(offset + 2)
                let code = switch slot {
                case .null:
                    sqlite3_bind_null(handle, index)
                case .integer(let value):
                    sqlite3_bind_int64(handle, index, value)
                case .text(let start, let count) where count > 0:
                    sqlite3_bind_text(handle, index, UnsafeRawPointer(text.baseAddress! + start)
                        .assumingMemoryBound(to: CChar.self), Int32(count), nil)
                case .text:
                    // An empty buffer may have no address at all.
                    sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
            }
            while try step() {}
        }
    }
}
