import FetchHistoryModel
import FoundationEssentials

/// Writes JSON text (RFC 8259) into a growing byte array: the one JSON
/// writer, for export records (`FetchJSON`) and for the JSON that `show`,
/// `stats` and `replay` print.
///
/// Every byte goes in through a checked append (the array's own, or for a
/// run of digits an `OutputSpan` bounded by the capacity it reserved), so
/// nothing written can overrun anything, and a new field costs nothing but
/// its line. Commas
/// between members and elements are written for you. Strings are escaped as
/// RFC 8259 requires (quote, backslash, control characters) and no more:
/// `/` and non-ASCII text are written as they are. The output is compact,
/// except for arrays begun with `elementsOnOwnLines` (an export's) and the
/// line breaks of JSON lines (`newline()`).
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.key("name"); json.string("Ada \"A\" Lovelace")
/// json.key("tags"); json.beginArray(); json.integer(1); json.null(); json.endArray()
/// json.key("value"); json.fragment(#"{"id":1}"#)
/// json.endObject()
/// json.text  // {"name":"Ada \"A\" Lovelace","tags":[1,null],"value":{"id":1}}
/// ```
package struct JSONWriter {
    /// The JSON written so far, UTF-8.
    package private(set) var bytes: [UInt8] = []
    /// A value was just finished inside an object or array: whatever comes
    /// next in it is preceded by a comma.
    private var needsComma = false
    /// The objects and arrays begun and not yet ended, innermost last.
    private var open: [Container] = []

    private enum Container {
        case object, array, arrayOfLines
    }

    package init() {}

    /// Writes onto the end of `buffer` through a new writer.
    package static func append(to buffer: inout [UInt8], _ write: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        writer.write(into: &buffer, write)
    }

    /// Writes onto the end of `buffer` through this writer, which remembers
    /// where it is in the document from one call to the next: a long
    /// document goes out in pieces through a buffer emptied in between.
    /// Nothing is copied: the buffer moves into the writer and back, keeping
    /// its capacity.
    package mutating func write(into buffer: inout [UInt8], _ write: (inout JSONWriter) -> Void) {
        precondition(bytes.isEmpty, "a writer that writes into buffers keeps no bytes of its own")
        swap(&bytes, &buffer)
        write(&self)
        swap(&bytes, &buffer)
    }

    /// The JSON written so far, as a string.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Structure

    package mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        open.append(.object)
        needsComma = false
    }

    package mutating func endObject() {
        precondition(open.popLast() == .object, "endObject() without its beginObject()")
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Begins an array; with `elementsOnOwnLines`, each element starts a
    /// new line and the closing `]` has its own (`[\n1,\n2\n]`).
    package mutating func beginArray(elementsOnOwnLines: Bool = false) {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        open.append(elementsOnOwnLines ? .arrayOfLines : .array)
        needsComma = false
    }

    package mutating func endArray() {
        let array = open.popLast()
        precondition(array == .array || array == .arrayOfLines, "endArray() without its beginArray()")
        // needsComma: the array has an element.
        if array == .arrayOfLines, needsComma { bytes.append(UInt8(ascii: "\n")) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key written once, as JSON (quotes, escapes, colon), for keys a
    /// writer writes over and over: an export writes 18 a record.
    package struct Key: Sendable {
        fileprivate let json: [UInt8]

        package init(_ name: String) {
            var writer = JSONWriter()
            writer.appendQuoted(name)
            writer.bytes.append(UInt8(ascii: ":"))
            json = writer.bytes
        }
    }

    /// A member's key, in an object: the member's value is written next.
    package mutating func key(_ key: Key) {
        assert(open.last == .object, "a key outside an object")
        beginValue()
        bytes.append(contentsOf: key.json)
        needsComma = false
    }

    /// A member's key, in an object: the member's value is written next.
    package mutating func key(_ name: String) {
        assert(open.last == .object, "a key outside an object")
        beginValue()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Ends a line of JSON lines, after a whole value: the next value starts
    /// a new JSON text.
    package mutating func newline() {
        precondition(open.isEmpty, "a line of JSON lines ends after a whole value")
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    // MARK: Values

    /// A string, escaped; `null` for nil.
    package mutating func string(_ value: String?) {
        guard let value else { return null() }
        beginValue()
        appendQuoted(value)
        needsComma = true
    }

    /// A whole number; `null` for nil.
    package mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        beginValue()
        bytes.append(addingCapacity: 20) { out in
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.appendDecimal(value.magnitude)
        }
        needsComma = true
    }

    /// A whole number; `null` for nil.
    package mutating func integer(_ value: Int?) {
        integer(value.map { Int64($0) })
    }

    package mutating func bool(_ value: Bool) {
        appendValue(value ? "true" : "false")
    }

    package mutating func null() {
        appendValue("null")
    }

    /// A value that is JSON text already, written as it is: a number
    /// formatted elsewhere, or a stored JSON document. `json` must be one
    /// valid JSON value (checked in debug builds).
    package mutating func fragment(_ json: String) {
        assert(Self.isOneValue(json), "not one JSON value: \(json)")
        appendValue(json)
    }

    // MARK: Values of the history

    /// A fetch or session id, in its lower-case form.
    package mutating func uuid(_ id: UUID) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        id.appendLowercased(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A time, as ISO 8601 UTC with milliseconds; `null` for nil.
    package mutating func timestamp(_ time: Timestamp?) {
        guard let time else { return null() }
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        time.appendISO8601(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    // MARK: Bytes

    private mutating func appendValue(_ json: String) {
        beginValue()
        bytes.append(contentsOf: json.utf8)
        needsComma = true
    }

    /// What comes before a key or a value: the comma after the previous
    /// one, and the line break of an element of an `arrayOfLines`.
    private mutating func beginValue() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        if open.last == .arrayOfLines { bytes.append(UInt8(ascii: "\n")) }
    }

    /// `text` as a JSON string literal. Most strings need no escape: they
    /// are copied whole, then checked eight bytes at a time; from the first
    /// byte that needs one, the rest is written again, escaped.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        if let first = firstByteToEscape(from: start) {
            let rest = Array(bytes[first...])
            bytes.removeSubrange(first...)
            for byte in rest { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The offset of the first quote, backslash or control character in
    /// `bytes` from `start` on.
    private func firstByteToEscape(from start: Int) -> Int? {
        var offset = start
        while offset + 8 <= bytes.count {
            let word = bytes.word(at: offset)
            let marks = ByteWord.bytes(equalTo: UInt8(ascii: "\""), in: word)
                | ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word) | ByteWord.bytes(below: 0x20, in: word)
            if marks != 0 { return offset + ByteWord.firstMarked(marks) }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return offset }
            offset += 1
        }
        return nil
    }

    /// One byte of a string's UTF-8: the two-character escapes where JSON
    /// has one for it, `\u00XX` for other control characters, else itself.
    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(byte)
        case UInt8(ascii: "\n"):
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"):
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"):
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(ascii: "t"))
        case 0..<0x20:
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(UInt8(hexDigitOf: byte >> 4))
            bytes.append(UInt8(hexDigitOf: byte & 0x0F))
        default:
            bytes.append(byte)
        }
    }

    /// `json` is exactly one JSON value, white space around it allowed.
    private static func isOneValue(_ json: String) -> Bool {
        var parser = JSONParser(bytes: Array(json.utf8))
        guard (try? parser.value()) != nil else { return false }
        parser.skipWhitespace()
        return parser.isAtEnd
    }
}
