@_spi(Bytes) import FetchHistoryModel
import FoundationEssentials

/// Writes JSON text (RFC 8259) into a growing byte array: the one JSON
/// writer, for export records (`FetchJSON`) and for the JSON that `show`,
/// `stats` and `replay` print.
///
/// Every value goes in through a `ByteWriter` bounded by the room it
/// reserved, so nothing written can overrun anything, and the array is checked for room and
/// ownership once a value (once a record, for an export's) rather than once
/// a byte. Commas between members and elements are written for you. Strings are escaped as
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
    /// The time written last (`ISO8601Recent`).
    private var recent = ISO8601Recent()

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
    /// writer writes over and over: an export writes 19 a record.
    package struct Key: Sendable {
        /// The key as written, quotes and colon included.
        package let utf8: [UInt8]

        package init(_ name: String) {
            var json: [UInt8] = []
            json.write(room: JSONWriter.quotedRoom(name) + 1) { out in
                out.appendQuoted(name)
                out.append(UInt8(ascii: ":"))
            }
            utf8 = json
        }
    }

    /// A member's key, in an object: the member's value is written next.
    package mutating func key(_ key: Key) {
        assert(open.last == .object, "a key outside an object")
        beginValue()
        bytes.append(contentsOf: key.utf8)
        needsComma = false
    }

    /// A member's key, in an object: the member's value is written next.
    package mutating func key(_ name: String) {
        assert(open.last == .object, "a key outside an object")
        beginValue()
        bytes.write(room: JSONWriter.quotedRoom(name) + 1) { out in
            out.appendQuoted(name)
            out.append(UInt8(ascii: ":"))
        }
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
        bytes.write(room: JSONWriter.quotedRoom(value)) { $0.appendQuoted(value) }
        needsComma = true
    }

    /// A whole number; `null` for nil.
    package mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        beginValue()
        bytes.write(room: JSONWriter.integerRoom) { $0.appendInteger(value) }
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
        bytes.write(room: JSONWriter.uuidRoom) { $0.appendQuoted(id) }
        needsComma = true
    }

    /// A time, as ISO 8601 UTC with milliseconds; `null` for nil.
    package mutating func timestamp(_ time: Timestamp?) {
        guard let time else { return null() }
        beginValue()
        var recent = recent
        bytes.write(room: JSONWriter.timestampRoom) { $0.appendQuoted(time, recent: &recent) }
        self.recent = recent
        needsComma = true
    }

    // MARK: Bytes

    private mutating func appendValue(_ json: String) {
        beginValue()
        bytes.append(contentsOf: json.utf8)
        needsComma = true
    }

    /// Writes one value through a single reservation of `room` bytes:
    /// an export record, whose fields are written straight into the span.
    /// `write` is handed the time last written, to write times with.
    package mutating func value(room: Int, _ write: (inout ByteWriter, inout ISO8601Recent) -> Void) {
        beginValue()
        var recent = recent
        bytes.write(room: room) { write(&$0, &recent) }
        self.recent = recent
        needsComma = true
    }

    /// What comes before a key or a value: the comma after the previous
    /// one, and the line break of an element of an `arrayOfLines`.
    private mutating func beginValue() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        if open.last == .arrayOfLines { bytes.append(UInt8(ascii: "\n")) }
    }

    /// `json` is exactly one JSON value, white space around it allowed.
    private static func isOneValue(_ json: String) -> Bool {
        var parser = JSONParser(bytes: Array(json.utf8))
        guard (try? parser.value()) != nil else { return false }
        parser.skipWhitespace()
        return parser.isAtEnd
    }
}

extension JSONWriter {
    /// Room for `text` as a string literal: quotes, and each byte escaped
    /// at worst as `\u00XX` (or `null` for nil).
    package static func quotedRoom(_ text: String?) -> Int { 4 + 6 * (text?.utf8.count ?? 0) }
    /// Room for an Int64 in decimal: 19 digits and a sign (or `null`).
    package static var integerRoom: Int { 20 }
    /// Room for a quoted UUID.
    package static var uuidRoom: Int { 38 }
    /// Room for a quoted ISO 8601 time (or `null`).
    package static var timestampRoom: Int { Timestamp.iso8601MaximumCount + 2 }
}

// The bytes of JSON values, written into room reserved for them (each
// value's `…Room` above, an upper bound).
extension ByteWriter {
    package mutating func appendNull() {
        append(bytesOf: 0x6C6C_756E, count: 4)  // null
    }

    package mutating func appendQuoted(_ id: UUID) {
        append(UInt8(ascii: "\""))
        id.appendLowercased(to: &self)
        append(UInt8(ascii: "\""))
    }

    package mutating func appendQuoted(_ time: Timestamp, recent: inout ISO8601Recent) {
        append(UInt8(ascii: "\""))
        time.appendISO8601(to: &self, recent: &recent)
        append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal, escaped as RFC 8259 requires (quote,
    /// backslash, control characters) and no more. Eight bytes at a time:
    /// a word is loaded, tested for bytes that need an escape, and stored
    /// whole up to the first that does.
    package mutating func appendQuoted(_ text: String) {
        append(UInt8(ascii: "\""))
        let utf8 = text.utf8.span
        var offset = 0
        while offset < utf8.count {
            let count = min(8, utf8.count - offset)
            let word = count == 8 ? utf8.word(at: offset) : utf8.partialWord(at: offset, count: count)
            let marks = ByteWord.bytes(equalTo: UInt8(ascii: "\""), in: word)
                | ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word) | ByteWord.bytes(below: 0x20, in: word)
            let plain = marks == 0 ? count : min(count, ByteWord.firstMarked(marks))
            append(bytesOf: word, count: plain)
            offset += plain
            if plain < count {
                appendEscaped(utf8[offset])
                offset += 1
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// A byte that needs an escape: the two-character escapes where JSON has
    /// one for it, `\u00XX` for other control characters.
    private mutating func appendEscaped(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\n"): append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): append(UInt8(ascii: "t"))
        case 0..<0x20:
            append(UInt8(ascii: "u")); append(UInt8(ascii: "0")); append(UInt8(ascii: "0"))
            append(UInt8(hexDigitOf: byte >> 4))
            append(UInt8(hexDigitOf: byte & 0x0F))
        default:
            append(byte)
        }
    }
}

extension Span<UInt8> {
    /// The `count` (fewer than eight) bytes at `offset`, the first in the
    /// lowest bits; the bytes above them are zero.
    fileprivate func partialWord(at offset: Int, count: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(self[offset + index]) &<< (8 &* UInt64(index)) }
        return word
    }
}
