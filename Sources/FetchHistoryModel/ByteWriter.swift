/// Writes bytes into room reserved at the end of an array, up to eight at
/// a time: ids, times, numbers and JSON for every row of an export (about
/// 450 bytes a row), where a checked `OutputSpan.append` a byte cost a
/// dozen instructions and the export three times its budget.
///
/// Every write checks first that eight bytes are free (one comparison),
/// then stores a whole word, of which it counts only the bytes it means:
/// `[UInt8].write(room:)` reserves eight bytes more than the room asked
/// for, so a write that fits the room always passes. Past that, the program
/// stops, as an array index out of range does. This and SQLite's boundary
/// are the only places that write through a pointer.
///
/// ```swift
/// var bytes: [UInt8] = []
/// bytes.write(room: 3) { $0.append(bytesOf: 0x63_6261, count: 3) }  // "abc"
/// ```
@_spi(Bytes) public struct ByteWriter {
    // SPI rather than package, the writes inlinable: an `@inlinable package`
    // function is not inlined into another module (Swift 6.3), and a write
    // from the JSON writer should be a compare and a store, not a call.
    @usableFromInline let buffer: UnsafeMutableRawBufferPointer
    /// How many bytes of `buffer` are written.
    @usableFromInline var count: Int

    @usableFromInline init(buffer: UnsafeMutableRawBufferPointer, count: Int) {
        self.buffer = buffer
        self.count = count
    }

    /// The low `count` bytes (0…8) of `word`, the lowest first.
    @inlinable @inline(__always)
    public mutating func append(bytesOf word: UInt64, count: Int) {
        precondition(UInt(bitPattern: count) <= 8 && self.count <= buffer.count &- 8, "a write past the room reserved")
        buffer.storeBytes(of: word.littleEndian, toByteOffset: self.count, as: UInt64.self)
        self.count &+= count
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        append(bytesOf: UInt64(byte), count: 1)
    }

    /// `bytes`, copied whole.
    public mutating func append(copying bytes: Span<UInt8>) {
        precondition(bytes.count <= buffer.count &- 8 &- count, "a write past the room reserved")
        bytes.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[count..<count + source.count]).copyMemory(from: source)
        }
        count += bytes.count
    }

    /// The decimal digits of `value`, most significant first.
    public mutating func appendDecimal(_ value: UInt64) {
        guard value >= 100_000_000 else {
            let (digits, count) = Digits.packed(value)
            return append(bytesOf: digits, count: count)
        }
        // Nine digits or more: the leading ones, then eight with their zeros.
        appendDecimal(value / 100_000_000)
        let (digits, count) = Digits.packed(value % 100_000_000, count: 8)
        append(bytesOf: digits, count: count)
    }

    public mutating func appendInteger(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }
}

extension [UInt8] {
    /// Writes at most `room` bytes onto the end through a `ByteWriter`.
    @_spi(Bytes) @inlinable public mutating func write(room: Int, _ body: (inout ByteWriter) -> Void) {
        append(addingCapacity: room + 8) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                var writer = ByteWriter(buffer: UnsafeMutableRawBufferPointer(buffer), count: initialized)
                body(&writer)
                initialized = writer.count
            }
        }
    }
}

/// Up to sixteen bytes known ahead (the keys of an export record), as two
/// words: written with two stores.
@_spi(Bytes) public struct ShortBytes: Sendable {
    @usableFromInline let low: UInt64, high: UInt64
    public let count: Int

    public init(_ bytes: [UInt8]) {
        precondition(bytes.count <= 16, "more than sixteen bytes")
        func word(_ range: Range<Int>) -> UInt64 {
            range.clamped(to: bytes.indices).reversed().reduce(0) { $0 << 8 | UInt64(bytes[$1]) }
        }
        low = word(0..<8)
        high = word(8..<16)
        count = bytes.count
    }

}

extension ShortBytes {
    /// Whether sixteen bytes, read as two words (the first byte in the
    /// lowest bits of `low`), begin with these bytes.
    @inlinable @inline(__always)
    public func isPrefix(ofLow low: UInt64, high: UInt64) -> Bool {
        /// The low `count` bytes of a word.
        func mask(_ count: Int) -> UInt64 {
            count >= 8 ? ~0 : (1 &<< UInt64(8 * max(count, 0))) &- 1
        }
        return (low ^ self.low) & mask(count) == 0 && (high ^ self.high) & mask(count - 8) == 0
    }
}

extension ByteWriter {
    @inlinable @inline(__always)
    public mutating func append(_ bytes: ShortBytes) {
        append(bytesOf: bytes.low, count: min(bytes.count, 8))
        if bytes.count > 8 { append(bytesOf: bytes.high, count: bytes.count - 8) }
    }
}

extension Span<UInt8> {
    /// The eight bytes at `offset`, the first in the lowest bits: one
    /// bounds-checked load (it stops the program past the end).
    @_spi(Bytes) @inlinable @inline(__always)
    public func word(at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}

/// Decimal digits as ASCII, packed into a word, the first in the lowest byte.
enum Digits {
    /// The digits of `value` (below 10⁸, so at most eight), with leading
    /// zeros up to `minimumCount`, and how many there are.
    @inline(__always)
    static func packed(_ value: UInt64, count minimumCount: Int = 1) -> (word: UInt64, count: Int) {
        precondition(value < 100_000_000 && minimumCount <= 8, "more than eight digits")
        var rest = value
        var word: UInt64 = 0
        var count = 0
        repeat {
            // Each digit found goes in front of those after it.
            word = word &<< 8 | (UInt64(UInt8(ascii: "0")) &+ rest % 10)
            rest /= 10
            count &+= 1
        } while rest > 0 || count < minimumCount
        return (word, count)
    }

    /// The two digits of `value` (0…99).
    @inline(__always)
    static func two(_ value: Int64) -> UInt64 {
        UInt64(UInt8(ascii: "0")) &+ UInt64(value / 10) | (UInt64(UInt8(ascii: "0")) &+ UInt64(value % 10)) &<< 8
    }
}
