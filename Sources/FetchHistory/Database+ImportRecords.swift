import FetchHistoryInterchange
import FetchHistoryModel
import FetchHistoryStore

// Where interchange meets the store, in the one module that has both: the
// reader yields records with their places, the store inserts fetches and
// reports an id used twice by value, and this turns that into the error
// that names the record, its line and its column.
extension Database {
    /// Adds every fetch `reader` reads, inside the caller's write
    /// transaction: all or nothing, as `importFetches(_:)`. An id used twice
    /// within the input is refused with an `ImportError` naming the second
    /// record and the first.
    ///
    /// ```swift
    /// let summary = try store.write { db in try db.importFetches(from: FetchRecordReader(descriptor: STDIN_FILENO)) }
    /// ```
    public func importFetches(from reader: FetchRecordReader) throws -> ImportSummary {
        try importFetches { insert in
            try reader.forEachRecord { record in
                do {
                    try insert(record.fetch)
                } catch let repeated as RepeatedFetchID {
                    throw ImportError.repeated(repeated, in: record)
                }
            }
        }
    }
}
