import BenchSQLite
import FetchHistory
import Foundation

/// The SQLite C API with nothing in between: the floor the store's and
/// GRDB's costs are measured against. Every call is one C call; failures stop
/// the benchmark.
final class RawConnection {
    let handle: OpaquePointer

    /// Opens an existing database the way `Database.init` does: read-write,
    /// no mutex, extended codes, a busy timeout, foreign keys, WAL and
    /// `synchronous = NORMAL`.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            throw BenchmarkError("cannot open \(path)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 10_000)
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement
        else { throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
        return RawStatement(handle: statement, connection: handle)
    }

    var changes: Int32 { sqlite3_changes(handle) }

    /// Every row of `sql` with `values` bound, each column as text (NULL: nil).
    func rows(_ sql: String, _ values: [Int64]) throws -> [[String?]] {
        let statement = try prepare(sql)
        for (offset, value) in values.enumerated() { statement.bind(Int32(offset + 1), value) }
        var rows: [[String?]] = []
        while true {
            let code = sqlite3_step(statement.handle)
            guard code == SQLITE_ROW else {
                sqlite3_reset(statement.handle)
                guard code == SQLITE_DONE else { throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
                return rows
            }
            rows.append((0..<sqlite3_column_count(statement.handle)).map { column in
                sqlite3_column_text(statement.handle, column).map { String(cString: $0) }
            })
        }
    }
}

/// A prepared statement, bound by index.
final class RawStatement {
    let handle: OpaquePointer
    let connection: OpaquePointer

    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// A fetched value as the store keeps it: an integer as an integer,
    /// anything else as its JSON text.
    func bind(_ index: Int32, _ value: FetchValue?) {
        if let integer = value?.integer { bind(index, Int64(integer)) } else { bind(index, value?.json) }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard let value else { return _ = sqlite3_bind_null(handle, index) }
        sqlite3_bind_text(handle, index, value, -1, bench_sqlite_transient())
    }

    /// Binds `count` bytes at `bytes` as text.
    func bind(_ index: Int32, _ bytes: UnsafePointer<UInt8>, count: Int) {
        bytes.withMemoryRebound(to: CChar.self, capacity: count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(count), bench_sqlite_transient())
        }
    }

    /// Runs the statement to completion and resets it for the next use.
    func run() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw BenchmarkError("step failed (\(code)): \(String(cString: sqlite3_errmsg(connection)))")
        }
    }
}

/// Writes UUIDs as the 36 lower-case characters the history stores, into
/// one reused buffer: what a C program would do instead of building a String.
struct UUIDText {
    private(set) var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
    private static let hex = Array("0123456789abcdef".utf8)
    /// Where each of the 16 bytes' two digits go.
    private static let offsets = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

    mutating func format(_ id: UUID) {
        withUnsafeBytes(of: id.uuid) { raw in
            bytes.withUnsafeMutableBufferPointer { text in
                for index in 0..<16 {
                    let byte = raw[index]
                    text[Self.offsets[index]] = Self.hex[Int(byte >> 4)]
                    text[Self.offsets[index] + 1] = Self.hex[Int(byte & 0xF)]
                }
            }
        }
    }

    /// Binds the last formatted UUID to `index` of `statement`.
    func bind(to statement: RawStatement, at index: Int32) {
        bytes.withUnsafeBufferPointer { statement.bind(index, $0.baseAddress!, count: 36) }
    }
}
