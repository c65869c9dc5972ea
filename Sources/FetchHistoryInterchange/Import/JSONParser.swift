@_spi(Bytes) import FetchHistoryModel

/// A strict RFC 8259 parser over UTF-8 bytes that finds values without
/// making them (`JSONToken`), with a nesting limit so hostile input cannot
/// exhaust the stack. Every string is checked (escapes, UTF-8) as it is
/// passed, so decoding one later cannot fail.
struct JSONParser {
    static let maximumDepth = 64

    let bytes: [UInt8]
    var index: Int

    init(bytes: [UInt8], from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace(newlines: Bool = true) {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || (newlines && byte == UInt8(ascii: "\n"))
            else { return }
            index += 1
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, message: message, inputEnded: isAtEnd)
    }

    @inline(__always)
    mutating func expect(_ character: Unicode.Scalar, _ context: StaticString) throws(JSONSyntaxError) {
        guard current == UInt8(ascii: character) else { throw missing(context) }
        index += 1
    }

    private func missing(_ context: StaticString) -> JSONSyntaxError {
        error(isAtEnd ? "the input ends where \(context) was expected" : "expected \(context)")
    }

    /// Passes the value at the current position (after white space) and says
    /// what and where it is. Objects and arrays are checked whole.
    mutating func value(depth: Int = 0) throws(JSONSyntaxError) -> JSONToken {
        guard depth < Self.maximumDepth else { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
        skipWhitespace()
        guard let byte = current else { throw error("the input ends where a value was expected") }
        let start = index
        let kind: JSONKind
        switch byte {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(); kind = .number
        case UInt8(ascii: "{"): try object(depth: depth); kind = .object
        case UInt8(ascii: "["): try elements(depth: depth); kind = .array
        case UInt8(ascii: "t"): try literal(Self.trueBytes); kind = .bool
        case UInt8(ascii: "f"): try literal(Self.falseBytes); kind = .bool
        case UInt8(ascii: "n"): try literal(Self.nullBytes); kind = .null
        default: throw error("unexpected character \(Self.describe(byte))")
        }
        return JSONToken(kind: kind, start: start, end: index)
    }

    /// Walks the object starting at the current `{`, handing `visit` each
    /// key (a string token; its quote is at `key.start - 1`) and the parser
    /// positioned at the key's value, which `visit` must pass.
    mutating func members(
        _ visit: (_ key: JSONToken, inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard enterObject() else { return }
        repeat {
            try visit(try key(), &self)
        } while try nextMember()
    }

    // The steps of `members`, for a reader that knows which key comes next.

    /// Passes the current `{`; false for an empty object, whose `}` it passes too.
    mutating func enterObject() -> Bool {
        index += 1
        skipWhitespace()
        guard current == UInt8(ascii: "}") else { return true }
        index += 1
        return false
    }

    /// Passes a member's key and the `:` after it.
    mutating func key() throws(JSONSyntaxError) -> JSONToken {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
        let key = try string()
        skipWhitespace()
        try expect(":", "':' after a key")
        return key
    }

    /// Passes the key `name` and its `:` when they come next written plainly
    /// (`"name":`), as an export writes them: a comparison of bytes, no
    /// scan. Moves nothing but white space otherwise.
    mutating func key(_ name: [UInt8]) -> Bool {
        skipWhitespace()
        let nameStart = index + 1
        let nameEnd = nameStart + name.count
        guard nameEnd + 1 < bytes.count, bytes[index] == UInt8(ascii: "\""),
              bytes[nameEnd] == UInt8(ascii: "\""), bytes[nameEnd + 1] == UInt8(ascii: ":"),
              Self.bytes(bytes, at: nameStart, are: name)
        else { return false }
        index = nameEnd + 2
        return true
    }

    /// Passes the key and colon `quoted` (`"name":`, as an export writes
    /// them) when they come next: `key(_:)` with the next sixteen bytes
    /// compared at once rather than byte by byte (a twentieth of an
    /// import's instructions). Nil, moving nothing but white space, when
    /// fewer than sixteen bytes are left: ask `key(_:)`.
    mutating func key(_ quoted: ShortBytes) -> Bool? {
        skipWhitespace()
        guard index <= bytes.count &- 16 else { return nil }
        guard quoted.isPrefix(ofLow: bytes.word(at: index), high: bytes.word(at: index &+ 8)) else { return false }
        index += quoted.count
        return true
    }

    /// `bytes` at `offset` begin with `expected`.
    static func bytes(_ bytes: [UInt8], at offset: Int, are expected: [UInt8]) -> Bool {
        guard offset >= 0, offset <= bytes.count - expected.count else { return false }
        for index in expected.indices where bytes[offset &+ index] != expected[index] { return false }
        return true
    }

    /// Passes what follows a member's value: `,` (true: another member
    /// follows) or the closing `}` (false).
    mutating func nextMember() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if current == UInt8(ascii: ",") {
            index += 1
            return true
        }
        try expect("}", "',' or '}' after a value")
        return false
    }

    /// The bytes of `token`: the text of a number, or of a string without escapes.
    func text(of token: JSONToken) -> ArraySlice<UInt8> {
        bytes[token.start..<token.end]
    }

    /// The string `token` holds, its escapes decoded.
    func string(_ token: JSONToken) throws(JSONSyntaxError) -> String {
        guard token.isEscaped else { return String(decoding: text(of: token), as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(token.end - token.start)
        var parser = JSONParser(bytes: bytes, from: token.start)
        while parser.index < token.end {
            let byte = bytes[parser.index]
            parser.index += 1
            if byte == UInt8(ascii: "\\") {
                decoded.append(contentsOf: String(try parser.escape()).utf8)
            } else {
                decoded.append(byte)
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    private mutating func literal(_ word: [UInt8]) throws(JSONSyntaxError) {
        guard Self.bytes(bytes, at: index, are: word) else {
            // Where it stops matching, which may be the end of the input.
            for byte in word {
                guard current == byte else { throw error("expected '\(String(decoding: word, as: UTF8.self))'") }
                index += 1
            }
            preconditionFailure("a literal that matches did not")
        }
        index += word.count
    }

    /// An object inside a value, checked whole. Its keys are only compared
    /// here, so that a repeated one is refused wherever it is; readers that
    /// keep values walk objects themselves (`members`, or its steps).
    private mutating func object(depth: Int) throws(JSONSyntaxError) {
        var keys: Set<String> = []
        try members { key, parser throws(JSONSyntaxError) in
            let name = try parser.string(key)
            guard keys.insert(name).inserted else { throw parser.error("the key '\(name)' appears twice", at: key.start - 1) }
            _ = try parser.value(depth: depth + 1)
        }
    }

    private mutating func elements(depth: Int) throws(JSONSyntaxError) {
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            _ = try value(depth: depth + 1)
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect("]", "',' or ']' after a value")
            return
        }
    }

    private mutating func number() throws(JSONSyntaxError) {
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw error("expected digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("numbers may not have leading zeros", at: integerStart)
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    /// Passes the string at the current `"`: one loop over its bytes, which
    /// are only looked at again if they hold escapes or non-ASCII.
    private mutating func string() throws(JSONSyntaxError) -> JSONToken {
        let quote = index
        index += 1
        var isEscaped = false
        var highBits: UInt64 = 0
        while true {
            passPlainBytes(oringHighBitsInto: &highBits)
            guard let byte = current else { throw error("a string starting here is never closed", at: quote) }
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                isEscaped = true
                index += 1
                _ = try escape()
                continue
            }
            throw error("control character \(Self.describe(byte)) inside a string; escape it")
        }
        let token = JSONToken(kind: .string, start: quote + 1, end: index, isEscaped: isEscaped)
        // Escapes are ASCII and never inside a multi-byte sequence: the raw
        // bytes are valid UTF-8 exactly when the decoded string is.
        if highBits & 0x8080_8080_8080_8080 != 0, !Self.isValidUTF8(text(of: token)) {
            throw error("the string starting here is not valid UTF-8", at: quote)
        }
        index += 1
        return token
    }

    /// Passes string bytes up to the next quote, backslash or control
    /// character (or the end), eight at a time while it can (most of an
    /// export is ids and times), noting their high bits: any set is
    /// non-ASCII. Works on locals: through `self` (inout) the array would be
    /// loaded again for every byte.
    private mutating func passPlainBytes(oringHighBitsInto highBits: inout UInt64) {
        let bytes = bytes
        var position = index
        while position + 8 <= bytes.count {
            let word = bytes.word(at: position)
            let stops = ByteWord.bytes(equalTo: UInt8(ascii: "\""), in: word)
                | ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word) | ByteWord.bytes(below: 0x20, in: word)
            if stops != 0 {
                let plain = ByteWord.firstMarked(stops)
                if plain > 0 { highBits |= word & (UInt64.max >> (64 - 8 * plain)) }
                position += plain
                break
            }
            highBits |= word
            position += 8
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            highBits |= UInt64(byte)
            position += 1
        }
        index = position
    }

    /// The character of the escape after a backslash (the current byte on).
    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("the input ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    var error = error("a high surrogate must be followed by a low one")
                    // A backslash as the last byte read may yet start the low one.
                    error.inputEnded = error.inputEnded || index + 1 == bytes.count
                    throw error
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("a high surrogate must be followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a low surrogate without a high one")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            return unicode
        default:
            throw error("unknown escape \\\(Self.describe(byte))", at: index - 1)
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = current?.hexDigitValue else { throw error("expected four hex digits after \\u") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Strict UTF-8 (RFC 3629): no overlong forms, surrogates or code points
    /// past U+10FFFF.
    private static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }
}
