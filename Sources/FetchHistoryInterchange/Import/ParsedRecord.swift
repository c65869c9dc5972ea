import FetchHistoryModel

/// One record of an import, read: its fetch, and where it was in the input,
/// for an error found only once the fetch is inserted.
struct ParsedRecord: Sendable {
    var fetch: Fetch
    /// 1-based, in input order.
    var number: Int
    /// 1-based line and column (in bytes) of the record's first byte.
    var line: Int
    var column: Int

    /// The import error for `repeated`, found when this record was inserted.
    func error(_ repeated: RepeatedFetchID) -> ImportError {
        ImportError(
            line: line, column: column, record: number,
            message: "the id \(repeated.id.lowercased) was already used by record \(repeated.firstRecord)"
        )
    }
}
