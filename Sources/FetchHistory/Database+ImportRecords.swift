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
    ///
    /// `read` is called after each record is added (a progress count).
    public func importFetches(from reader: FetchRecordReader, read: () -> Void = {}) throws -> ImportSummary {
        // The rows are made ready on the reading thread, which waits on
        // this one: the inserts set an import's pace (docs/commands.md, "import").
        try importRows { insert in
            try reader.forEachBatch(preparing: Self.rowsAndPlaces) { batch in
                let (rows, places) = batch
                for index in places.indices {
                    do {
                        try insert(rows, index)
                    } catch let repeated as RepeatedFetchID {
                        throw ImportError.repeated(repeated, at: places[index])
                    }
                    read()
                }
            }
        }
    }

    /// A batch of records made into the rows that insert them, and where
    /// each was read. A loop over the array here rather than a sequence
    /// handed to the store: a generic one is not specialized across
    /// modules, and iterating it cost 7.5% of the reading thread.
    @Sendable private static func rowsAndPlaces(of records: [ParsedRecord]) -> (ImportRows, [RecordPlace]) {
        var encoder = ImportRows.Encoder(reservingCapacity: records.count)
        for record in records { encoder.append(record.fetch) }
        return (encoder.rows, records.map(\.place))
    }
}

extension HistoryWriter {
    /// Adds every fetch `reader` reads, as `Database.importFetches(from:)`
    /// does, through the commands' seam: into whatever history this is.
    ///
    /// ```swift
    /// let summary = try await store.importFetches(from: FetchRecordReader(descriptor: STDIN_FILENO))
    /// ```
    public nonisolated(nonsending) func importFetches(
        from reader: FetchRecordReader, read: @escaping @Sendable () -> Void = {}
    ) async throws -> ImportSummary {
        // Read once, by whichever thread the history inserts on.
        nonisolated(unsafe) let reader = reader
        return try await importFetches { insert in try reader.insertEach(insert, read: read) }
    }
}

extension FetchRecordReader {
    /// Hands each record's fetch to `insert`; an id `insert` reports as
    /// used twice becomes the `ImportError` that names both records.
    fileprivate func insertEach(_ insert: (Fetch) throws -> Void, read: () -> Void) throws {
        try forEachRecord { record in
            do {
                try insert(record.fetch)
            } catch let repeated as RepeatedFetchID {
                throw ImportError.repeated(repeated, in: record)
            }
            read()
        }
    }
}
