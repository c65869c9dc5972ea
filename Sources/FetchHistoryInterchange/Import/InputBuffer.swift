import FetchHistoryModel

/// The input of an import, read a chunk at a time into one buffer that
/// keeps only what has not been parsed yet: memory stays flat however long
/// the input is. The buffer grows only when a single record is longer than
/// it, up to `maximumSize`.
struct InputBuffer {
    /// No export record comes near this; the limit stops input without
    /// record boundaries (or hostile input) from filling memory.
    static let maximumSize = 16 << 20

    /// The unparsed part is longer than `maximumSize`.
    struct Overflow: Error {}

    private let source: any ByteSource
    /// The bytes read and not dropped. Offsets into it are valid until the
    /// next `refill`.
    private(set) var bytes: [UInt8] = []
    /// How many bytes `bytes` may hold: the chunk size, doubled for each
    /// record that did not fit, up to `maximumSize`.
    private var size: Int
    /// The source said it has nothing more.
    private(set) var sourceEnded = false
    /// What was dropped from the front, so positions count from the start
    /// of the input: bytes, newlines, and where the last line began.
    private var droppedBytes = 0
    private var droppedLines = 0
    private var lineStart = 0
    /// How far `lineAndColumn` has counted in `bytes`: the offset, the line
    /// there and where that line began. Every record's place is asked for,
    /// in order, so each byte is counted once.
    private var counted = (offset: 0, line: 1, lineStart: 0)

    init(source: any ByteSource, chunkSize: Int) {
        self.source = source
        size = max(chunkSize, 1)
        bytes.reserveCapacity(size)
    }

    /// Drops the bytes before `offset`, moves the rest to the front (offset
    /// 0), and reads more after them until the buffer is full or the source
    /// ends; a caller parses the record it was in again from its start, so
    /// filling the buffer (rather than taking the little a pipe has ready)
    /// keeps that rare. Grows the buffer when there was nothing to drop.
    /// Returns false when nothing more could be read.
    mutating func refill(keepingFrom offset: Int) throws -> Bool {
        drop(offset)
        if bytes.count == size {
            guard size < Self.maximumSize else { throw Overflow() }
            size = min(size * 2, Self.maximumSize)
            bytes.reserveCapacity(size)
        }
        let before = bytes.count
        while !sourceEnded, bytes.count < size {
            if try source.read(upTo: size - bytes.count, into: &bytes) == 0 { sourceEnded = true }
        }
        return bytes.count > before
    }

    /// The 1-based line and column (in bytes) of `offset`, counting on from
    /// the last offset asked for when it is not before it. Eight bytes at a
    /// time: every byte of an import is counted, once.
    mutating func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        if offset < counted.offset { counted = (0, droppedLines + 1, lineStart) }
        var (index, line, start) = counted
        let end = min(offset, bytes.count)
        let newline = UInt8(ascii: "\n")
        while index < end {
            // Most stretches of 32 bytes hold no newline: passed with one test.
            if index + 32 <= end {
                let marks = ByteWord.bytes(equalTo: newline, in: bytes.word(at: index))
                    | ByteWord.bytes(equalTo: newline, in: bytes.word(at: index + 8))
                    | ByteWord.bytes(equalTo: newline, in: bytes.word(at: index + 16))
                    | ByteWord.bytes(equalTo: newline, in: bytes.word(at: index + 24))
                if marks == 0 {
                    index += 32
                    continue
                }
            }
            guard index + 8 <= end else {
                if bytes[index] == newline {
                    line += 1
                    start = droppedBytes + index + 1
                }
                index += 1
                continue
            }
            let newlines = ByteWord.count(of: newline, in: bytes.word(at: index))
            if newlines > 0 {
                line += newlines
                start = droppedBytes + bytes[index..<index + 8].lastIndex(of: newline)! + 1
            }
            index += 8
        }
        counted = (end, line, start)
        return (line, droppedBytes + offset - start + 1)
    }

    private mutating func drop(_ offset: Int) {
        guard offset > 0 else { return }
        // Counted on from the last record's place, not again from the start.
        droppedLines = lineAndColumn(of: offset).line - 1
        lineStart = counted.lineStart
        bytes.removeSubrange(..<offset)
        droppedBytes += offset
        counted = (0, droppedLines + 1, lineStart)
    }
}
