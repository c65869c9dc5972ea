import FoundationEssentials

/// Reads export records back into fetches: a JSON array (`export --format
/// json`) or one object per line (`--format jsonl`), told apart by the first
/// character. The input is read a chunk at a time and records are validated
/// one by one as they are read, so memory stays flat and a bad record is
/// reported with its position before anything depends on it.
///
/// ```swift
/// try FetchRecordReader(descriptor: STDIN_FILENO).forEach { fetch in … }
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

    /// Calls `body` with each record in order; reads the input once. Throws
    /// `ImportError` for input that is not a valid export (and for a
    /// `RepeatedFetchID` that `body` throws: it gets the record's position),
    /// `InputReadError` when reading fails.
    public func forEach(_ body: (Fetch) throws -> Void) throws {
        var stream = RecordStream(input: InputBuffer(source: source, chunkSize: chunkSize))
        guard let first = try stream.nextByte(skippingNewlines: true) else { return }
        if first == UInt8(ascii: "[") {
            try stream.readArray(body)
        } else {
            try stream.readLines(body)
        }
    }
}

/// The reader's walk through the input: between records it only looks at
/// white space and separators, reading more whenever it reaches the end of
/// what it has.
private struct RecordStream: ~Copyable {
    var input: InputBuffer
    /// Offset in `input.bytes` of the first byte not yet read.
    var position = 0
    var fields = RecordFields()
    var recordNumber = 0

    init(input: consuming InputBuffer) {
        self.input = input
    }

    mutating func readArray(_ body: (Fetch) throws -> Void) throws {
        position += 1
        if try nextByte(skippingNewlines: true) == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                _ = try nextByte(skippingNewlines: true)
                try record(body)
                if try nextByte(skippingNewlines: true) == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                var parser = JSONParser(bytes: input.bytes, from: position)
                do {
                    try parser.expect("]", "',' or ']' after a record")
                } catch {
                    throw importError(at: error.offset, error.message)
                }
                position = parser.index
                break
            }
        }
        if try nextByte(skippingNewlines: true) != nil {
            throw importError(at: position, "unexpected text after the closing ']'")
        }
    }

    mutating func readLines(_ body: (Fetch) throws -> Void) throws {
        while let byte = try nextByte(skippingNewlines: false) {
            if byte == UInt8(ascii: "\n") {
                position += 1
                continue
            }
            try record(body)
            guard let after = try nextByte(skippingNewlines: false) else { break }
            guard after == UInt8(ascii: "\n") else {
                throw importError(at: position, "expected the end of the line after a record")
            }
            position += 1
        }
    }

    /// Skips white space, reading more as needed, and returns the byte after
    /// it (left unread); nil at the end of the input.
    mutating func nextByte(skippingNewlines newlines: Bool) throws -> UInt8? {
        while true {
            var parser = JSONParser(bytes: input.bytes, from: position)
            parser.skipWhitespace(newlines: newlines)
            position = parser.index
            if let byte = parser.current { return byte }
            if input.sourceEnded { return nil }
            _ = try input.refill(keepingFrom: position)
            position = 0
        }
    }

    /// Reads the record at `position` and hands its fetch to `body`. A
    /// record that runs past what has been read is read again from its
    /// start once more is.
    private mutating func record(_ body: (Fetch) throws -> Void) throws {
        recordNumber += 1
        var start = position
        while true {
            var parser = JSONParser(bytes: input.bytes, from: start)
            do {
                try fields.read(&parser)
                position = parser.index
                break
            } catch where error.inputEnded && !input.sourceEnded {
                do {
                    _ = try input.refill(keepingFrom: start)
                } catch is InputBuffer.Overflow {
                    throw importError(at: start, "the record starting here is longer than \(InputBuffer.maximumSize >> 20) MiB")
                }
                start = 0
            } catch {
                throw importError(at: error.offset, error.message)
            }
        }
        let fetch: Fetch
        do {
            fetch = try fields.fetch()
        } catch {
            throw importError(at: start, error.message, record: recordNumber)
        }
        do {
            try body(fetch)
        } catch let repeated as RepeatedFetchID {
            throw importError(
                at: start, "the id \(repeated.id.lowercased) was already used by record \(repeated.firstRecord)",
                record: recordNumber
            )
        }
    }

    private func importError(at offset: Int, _ message: String, record: Int? = nil) -> ImportError {
        let (line, column) = input.lineAndColumn(of: offset)
        return ImportError(line: line, column: column, record: record, message: message)
    }
}
