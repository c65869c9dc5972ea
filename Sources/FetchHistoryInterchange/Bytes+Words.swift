@_spi(Bytes) import FetchHistoryModel

// Eight bytes at a time, safely: each load is one bounds-checked load of
// the array's span, and the tests on a word are the classic SWAR ones. The
// import passes most of its input this way (strings, and the newlines it
// counts when it drops what it has read), and the writer checks the strings
// it copies for what needs an escape.

extension [UInt8] {
    /// The eight bytes at `offset`, the first in the lowest bits: one
    /// bounds-checked load (it stops the program past the end).
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        span.word(at: offset)
    }
}

/// SWAR tests on the eight bytes of a word.
enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is below `limit` (at most
    /// 0x80): exact for the lowest such byte, and bytes above it may be
    /// marked too.
    @inline(__always)
    static func bytes(below limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// The high bit of each byte of `word` equal to `byte` (exact for the
    /// lowest one).
    @inline(__always)
    static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        bytes(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    /// How many bytes of `word` equal `byte`, exactly.
    @inline(__always)
    static func count(of byte: UInt8, in word: UInt64) -> Int {
        // A byte is zero exactly when neither its low seven bits carry into
        // the high one nor its high bit is set.
        let matches = word ^ (ones &* UInt64(byte))
        let lowSeven = (matches & ~highBits) &+ ~highBits
        return (~(lowSeven | matches) & highBits).nonzeroBitCount
    }

    /// The index (0…7) of the lowest byte marked in `marks`, which is not zero.
    @inline(__always)
    static func firstMarked(_ marks: UInt64) -> Int {
        marks.trailingZeroBitCount / 8
    }
}
