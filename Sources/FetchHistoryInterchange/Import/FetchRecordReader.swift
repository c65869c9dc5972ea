import FetchHistoryModel
import FoundationEssentials

/// Reads export records back into fetches: a JSON array (`export --format
/// json`) or one object per line (`--format jsonl`), told apart by the first
/// character. The input is read a chunk at a time and records are validated
/// one by one as they are read, so memory stays flat and a bad record is
/// reported with its position before anything depends on it.
///
/// ```swift
/// try FetchRecordReader(descriptor: STDIN_FILENO).forEach { fetch in … }
/// let summary = try store.write { db in try db.importFetches(from: FetchRecordReader(descriptor: STDIN_FILENO)) }
/// ```
public struct FetchRecordReader {
    /// Large enough that reading costs nothing next to parsing, small enough
    /// not to show in memory.
    public static let defaultChunkSize = 1 << 20

    private let source: any ByteSource
    private let chunkSize: Int

    /// Reads the records in `data`.
    public init(data: Data, chunkSize: Int = defaultChunkSize) {
        self.init(source: DataSource(data), chunkSize: chunkSize)
    }

    /// Reads the records from an open file, standard input or a pipe, to
    /// its end. The descriptor stays open.
    public init(descriptor: Int32, chunkSize: Int = defaultChunkSize) {
        self.init(source: FileDescriptorSource(descriptor), chunkSize: chunkSize)
    }

    /// `chunkSize`: how much is read at a time, and the buffer's size unless
    /// a record is longer.
    init(source: any ByteSource, chunkSize: Int) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// Calls `body` with each record's fetch in order; reads the input
    /// once. Throws `ImportError` for input that is not a valid export (its
    /// `problem` says whether it is no export at all, one cut short, or a
    /// record that is not what `export` writes),
    /// `InputReadError` when reading fails, and what `body` throws as it is.
    public func forEach(_ body: (Fetch) throws -> Void) throws {
        try forEachRecord { record in try body(record.fetch) }
    }

    /// Calls `body` with each record (its fetch and its place in the input)
    /// in order; reads the input once. Throws as `forEach` does.
    ///
    /// The input is read and parsed on a thread of its own, a few hundred
    /// records ahead of `body` (see `ReadAhead`); `body` runs on the calling
    /// thread, and the input is not read after this returns.
    public func forEachRecord(_ body: (ParsedRecord) throws -> Void) throws {
        try forEachBatch(preparing: { $0 }) { batch in
            for record in batch { try body(record) }
        }
    }

    /// Calls `body` with each batch of records (a few hundred, in order) as
    /// `prepare` made it, on the reading thread; reads the input once.
    /// Throws as `forEach` does. What `prepare` does costs the caller's
    /// thread nothing: an import has its rows made ready there.
    public func forEachBatch<Prepared: Sendable>(
        preparing prepare: @escaping @Sendable ([ParsedRecord]) -> Prepared, _ body: (Prepared) throws -> Void
    ) throws {
        // Its source is read by the reading thread alone, until `stop`
        // has waited for that thread to end.
        nonisolated(unsafe) let reader = self
        let readAhead = ReadAhead(preparing: prepare) { put in try reader.readRecords(put) }
        defer { readAhead.stop() }
        while let batch = try readAhead.next() { try body(batch) }
    }

    private func readRecords(_ body: (ParsedRecord) throws -> Void) throws {
        var stream = RecordStream(input: InputBuffer(source: source, chunkSize: chunkSize))
        try stream.skipByteOrderMark()
        guard let first = try stream.nextByte(skippingNewlines: true) else { return }
        if first == UInt8(ascii: "[") {
            try stream.readArray(body)
        } else {
            if first != UInt8(ascii: "{") { try stream.refuseUnlessJSON() }
            try stream.readLines(body)
        }
    }
}
