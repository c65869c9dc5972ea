import Glibc

/// The input of an import, read a chunk at a time into one buffer that
/// keeps only what has not been parsed yet: memory stays flat however long
/// the input is. The buffer grows only when a single record is longer than
/// it, up to `maximumSize`.
struct InputBuffer: ~Copyable {
    /// No export record comes near this; the limit stops input without
    /// record boundaries (or hostile input) from filling memory.
    static let maximumSize = 16 << 20

    /// The unparsed part is longer than `maximumSize`.
    struct Overflow: Error {}

    private let source: any ByteSource
    private var storage: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    /// The source said it has nothing more.
    private(set) var sourceEnded = false
    /// What was dropped from the front, so positions count from the start
    /// of the input: bytes, newlines, and where the last line began.
    private var droppedBytes = 0
    private var droppedLines = 0
    private var lineStart = 0

    init(source: any ByteSource, chunkSize: Int) {
        self.source = source
        storage = .allocate(capacity: max(chunkSize, 1))
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes read and not dropped. Offsets into it are valid until the
    /// next `refill`.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.baseAddress, count: count)
    }

    /// Drops the bytes before `offset`, moves the rest to the front (offset
    /// 0), and reads more after them until the buffer is full or the source
    /// ends; a caller parses the record it was in again from its start, so
    /// filling the buffer (rather than taking the little a pipe has ready)
    /// keeps that rare. Grows the buffer when there was nothing to drop.
    /// Returns false when nothing more could be read.
    mutating func refill(keepingFrom offset: Int) throws -> Bool {
        drop(offset)
        if count == storage.count {
            guard storage.count < Self.maximumSize else { throw Overflow() }
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(storage.count * 2, Self.maximumSize))
            _ = larger.initialize(fromContentsOf: storage)
            storage.deallocate()
            storage = larger
        }
        let before = count
        while !sourceEnded, count < storage.count {
            let read = try source.read(into: UnsafeMutableBufferPointer(rebasing: storage[count...]))
            if read == 0 { sourceEnded = true }
            count += read
        }
        return count > before
    }

    /// The 1-based line and column (in bytes) of `offset`.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = droppedLines + 1
        var start = lineStart
        for index in 0..<min(offset, count) where storage[index] == UInt8(ascii: "\n") {
            line += 1
            start = droppedBytes + index + 1
        }
        return (line, droppedBytes + offset - start + 1)
    }

    private mutating func drop(_ offset: Int) {
        guard offset > 0, let base = storage.baseAddress else { return }
        var searched = 0
        while let newline = memchr(base + searched, Int32(UInt8(ascii: "\n")), offset - searched) {
            searched = newline.assumingMemoryBound(to: UInt8.self) - base + 1
            droppedLines += 1
            lineStart = droppedBytes + searched
        }
        memmove(base, base + offset, count - offset)
        count -= offset
        droppedBytes += offset
    }
}
