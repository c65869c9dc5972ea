import FoundationEssentials

// UUIDs are read and written for every row of an export or a listing.
// Foundation parses them with sscanf and formats them upper-case, which was
// close to half the cost of an export; these work on the bytes directly.

extension UUID {
    /// The lower-case form the history stores and prints.
    package var lowercased: String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        appendLowercased(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the 36-character lower-case form to `text`.
    package func appendLowercased(to text: inout [UInt8]) {
        text.write(room: 36) { appendLowercased(to: &$0) }
    }

    /// Appends the 36-character lower-case form to `out`, which has room for it.
    package func appendLowercased(to out: inout ByteWriter) {
        let b = uuid
        let words = (
            HexWord.encode(b.0, b.1, b.2, b.3), HexWord.encode(b.4, b.5, b.6, b.7),
            HexWord.encode(b.8, b.9, b.10, b.11), HexWord.encode(b.12, b.13, b.14, b.15)
        )
        // 8-4-4-4-12 digits: the second and third words are split by a dash.
        let dash = UInt64(UInt8(ascii: "-"))
        out.append(bytesOf: words.0, count: 8)
        out.append(bytesOf: dash | (words.1 & 0xFFFF_FFFF) << 8 | dash << 40, count: 6)
        out.append(bytesOf: words.1 >> 32 | dash << 32, count: 5)
        out.append(bytesOf: words.2 & 0xFFFF_FFFF | dash << 32, count: 5)
        out.append(bytesOf: words.2 >> 32, count: 4)
        out.append(bytesOf: words.3, count: 8)
    }

    /// Parses the 36-character form (either case) from UTF-8 bytes; nil for
    /// anything else.
    package init?(utf8 text: Span<UInt8>) {
        guard text.count == 36 else { return nil }
        let dash = UInt8(ascii: "-")
        guard text[8] == dash, text[13] == dash, text[18] == dash, text[23] == dash else { return nil }
        /// Four digits at `offset` and four at `next`, as one word.
        func halves(_ offset: Int, _ next: Int) -> UInt64 {
            text.word(at: offset) & 0xFFFF_FFFF | text.word(at: next) &<< 32
        }
        guard let w0 = HexWord.decode(text.word(at: 0)), let w1 = HexWord.decode(halves(9, 14)),
              let w2 = HexWord.decode(halves(19, 24)), let w3 = HexWord.decode(text.word(at: 28))
        else { return nil }
        func byte(_ word: UInt32, _ index: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * index)) }
        self.init(uuid: (
            byte(w0, 0), byte(w0, 1), byte(w0, 2), byte(w0, 3), byte(w1, 0), byte(w1, 1), byte(w1, 2), byte(w1, 3),
            byte(w2, 0), byte(w2, 1), byte(w2, 2), byte(w2, 3), byte(w3, 0), byte(w3, 1), byte(w3, 2), byte(w3, 3)
        ))
    }
}

/// Eight hex digits and the four bytes they stand for, converted a word at
/// a time (SWAR) rather than a digit at a time: an export parses and writes
/// two UUIDs a row. In a word of text the first character is the lowest
/// byte; in a word of bytes the first byte is.
enum HexWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowNibbles: UInt64 = 0x0F0F_0F0F_0F0F_0F0F

    /// The four bytes eight hex digits (either case) stand for; nil unless
    /// all eight are hex digits. Inlined: called four times an id, the
    /// calls cost as much as the arithmetic.
    @inline(__always)
    static func decode(_ text: UInt64) -> UInt32? {
        guard text & highBits == 0 else { return nil }
        let folded = text | ones &* 0x20  // A…F to a…f; a digit keeps its value
        let digits = atLeast(UInt8(ascii: "0"), text) & ~atLeast(UInt8(ascii: "9") + 1, text)
        let letters = atLeast(UInt8(ascii: "a"), folded) & ~atLeast(UInt8(ascii: "f") + 1, folded)
        guard digits | letters == highBits else { return nil }
        // Each byte's value: its low four bits, plus 9 for a letter (a is 0x61).
        let nibbles = (text & lowNibbles) &+ (letters >> 7) &* 9
        // Pairs of nibbles into bytes, then the four bytes together.
        var packed = (nibbles &<< 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: packed | packed >> 16)
    }

    /// The high bit of each byte of `word` (all below 0x80) that is at least
    /// `limit`: adding 0x80 - limit carries into it exactly then, and never
    /// out of the byte.
    private static func atLeast(_ limit: UInt8, _ word: UInt64) -> UInt64 {
        (word &+ ones &* UInt64(0x80 - limit)) & highBits
    }

    /// The eight lower-case hex digits of four bytes.
    static func encode(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> UInt64 {
        // Byte i to bytes 2i (its high nibble) and 2i + 1 (its low one).
        var spread = UInt64(b0) | UInt64(b1) &<< 16 | UInt64(b2) &<< 32 | UInt64(b3) &<< 48
        spread = (spread >> 4) & 0x000F_000F_000F_000F | (spread & 0x000F_000F_000F_000F) &<< 8
        // 0…9 to "0"…"9", 10…15 to "a"…"f" ("a" is 39 past "0" + 10).
        let aboveNine = ((spread &+ ones &* 6) >> 4) & ones
        return spread &+ ones &* UInt64(UInt8(ascii: "0")) &+ aboveNine &* 39
    }
}
