import FetchHistoryModel

/// Why an import file was refused, and where.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line and column of the problem in the input.
    public var line: Int
    public var column: Int
    /// 1-based number of the record the problem is in, if it is in one.
    public var record: Int?
    public var message: String

    public var description: String {
        let place = "line \(line), column \(column)"
        return record.map { "record \($0) (\(place)): \(message)" } ?? "\(place): \(message)"
    }

    /// A record whose id an earlier record of the same import used, which
    /// the store found when it inserted it.
    public static func repeated(_ repeated: RepeatedFetchID, in record: ParsedRecord) -> ImportError {
        ImportError(
            line: record.line, column: record.column, record: record.number,
            message: "the id \(repeated.id.lowercased) was already used by record \(repeated.firstRecord)"
        )
    }
}
