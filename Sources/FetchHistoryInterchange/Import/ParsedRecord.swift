import FetchHistoryModel

/// One record of an import, read: its fetch, and where it was in the input,
/// for an error found only once the fetch is inserted (see
/// `ImportError.repeated(_:in:)`).
public struct ParsedRecord: Sendable {
    public var fetch: Fetch
    /// 1-based, in input order.
    public var number: Int
    /// 1-based line and column (in bytes) of the record's first byte.
    public var line: Int
    public var column: Int

    public init(fetch: Fetch, number: Int, line: Int, column: Int) {
        self.fetch = fetch
        self.number = number
        self.line = line
        self.column = column
    }
}

/// Where a record was in the input: its number and the line and column of
/// its first byte, all from 1.
public struct RecordPlace: Hashable, Sendable {
    public var number: Int
    public var line: Int
    public var column: Int
}

extension ParsedRecord {
    public var place: RecordPlace { RecordPlace(number: number, line: line, column: column) }
}
