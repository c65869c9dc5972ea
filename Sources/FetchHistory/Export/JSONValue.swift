/// A JSON value as the importer reads it. Numbers keep their text, so a
/// huge or fractional number is reported rather than rounded.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The JSON type's name, for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A syntax error at a byte offset of the input.
struct JSONSyntaxError: Error {
    var offset: Int
    var message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes, with a nesting limit so
/// hostile input cannot exhaust the stack.
struct JSONParser {
    static let maximumDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace(newlines: Bool = true) {
        while let byte = current,
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || (newlines && byte == UInt8(ascii: "\n")) {
            index += 1
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, message: message)
    }

    mutating func expect(_ character: Unicode.Scalar, _ context: String) throws(JSONSyntaxError) {
        guard current == UInt8(ascii: character) else {
            throw error(isAtEnd ? "the input ends where \(context) was expected" : "expected \(context)")
        }
        index += 1
    }

    mutating func parseValue(depth: Int = 0) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
        skipWhitespace()
        guard let byte = current else { throw error("the input ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(Self.describe(byte))")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard current == expected else { throw error("expected '\(word)'") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try parseMembers { key, keyOffset, parser throws(JSONSyntaxError) in
            guard members[key] == nil else { throw parser.error("the key '\(key)' appears twice", at: keyOffset) }
            members[key] = try parser.parseValue(depth: depth + 1)
        }
        return .object(members)
    }

    /// Walks the object starting at the current `{`, handing `visit` each
    /// key, where the key starts, and the parser positioned at the key's
    /// value, which `visit` must parse. Lets a reader that knows its keys
    /// keep the values where it wants them, without a dictionary.
    mutating func parseMembers(
        _ visit: (String, Int, inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let key = try parseString()
            skipWhitespace()
            try expect(":", "':' after a key")
            try visit(key, keyOffset, &self)
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect("}", "',' or '}' after a value")
            return
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect("]", "',' or ']' after a value")
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                parser.index += 1
                count += 1
            }
            return count
        }
        let integerStart = index
        guard digits(&self) > 0 else { throw error("expected digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("numbers may not have leading zeros", at: integerStart)
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        // Most strings have no escapes: make the String straight from the
        // input, with no copy in between.
        var end = index
        var isASCII = true
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            isASCII = isASCII && bytes[end] < 0x80
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: bytes[index..<end])
            // ASCII needs no validation (and skips the generic validating initializer).
            let validated = isASCII ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            guard let text = validated else { throw error("the string starting here is not valid UTF-8", at: start) }
            index = end + 1
            return text
        }
        var scalars: [UInt8] = []
        var plainStart = index
        while true {
            guard let byte = current else { throw error("a string starting here is never closed", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("the string starting here is not valid UTF-8", at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
                index += 1
                try appendEscape(to: &scalars)
                plainStart = index
            case 0..<0x20:
                throw error("control character \(Self.describe(byte)) inside a string; escape it")
            default:
                index += 1
            }
        }
    }

    private mutating func appendEscape(to output: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw error("the input ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("a high surrogate must be followed by a low one")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("a high surrogate must be followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a low surrogate without a high one")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            output.append(contentsOf: Array(String(unicode).utf8))
        default:
            throw error("unknown escape \\\(Self.describe(byte))", at: index - 1)
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw error("expected four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }
}
