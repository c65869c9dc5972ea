import FetchHistoryModel

/// Why an import file was refused, and where.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line and column of the problem in the input.
    public var line: Int
    public var column: Int
    /// 1-based number of the record the problem is in, if it is in one.
    public var record: Int?
    public var message: String
    /// What kind of problem it is, for a program to act on; `message` says it in words.
    public var problem: Problem = .invalidRecord

    /// The kinds of input an import refuses.
    public enum Problem: Equatable, Sendable {
        /// The input is not an export at all: text, TSV, CSV, a database.
        /// Its place is left out of `description`: it is the whole input.
        case notAnExport
        /// The input ends in the middle of a record, or of the JSON array:
        /// it was cut short.
        case cutShort
        /// A record, or what lies between two, is not what `export` writes.
        case invalidRecord
    }

    public var description: String {
        if problem == .notAnExport { return message }
        let place = "line \(line), column \(column)"
        return record.map { "record \($0) (\(place)): \(message)" } ?? "\(place): \(message)"
    }

    /// A record whose id an earlier record of the same import used, which
    /// the store found when it inserted it.
    public static func repeated(_ repeated: RepeatedFetchID, in record: ParsedRecord) -> ImportError {
        self.repeated(repeated, at: record.place)
    }

    /// As `repeated(_:in:)`, for the record at `place`.
    public static func repeated(_ repeated: RepeatedFetchID, at place: RecordPlace) -> ImportError {
        ImportError(
            line: place.line, column: place.column, record: place.number,
            message: "the id \(repeated.id.lowercased) was already used by record \(repeated.firstRecord)"
        )
    }
}
