import FetchHistoryModel
import FoundationEssentials

/// The fields of a row value as PostgreSQL writes it in text (`ROW(…)::text`,
/// its `record_out`), read one after another: in parentheses, separated by
/// commas; NULL as nothing at all; a field that is empty or holds a double
/// quote, a backslash, a parenthesis, a comma or white space in double
/// quotes, its double quotes and backslashes doubled
/// (postgresql.org/docs/current/rowtypes.html, "Composite Type Input and
/// Output Syntax").
///
/// A fetch crosses from the server as one such text cell rather than a cell
/// per column: postgres-nio spends about 1,000 instructions on a cell, and a
/// fetch has 22 of them.
struct RecordText {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next field starts.
    private var start = 1

    /// Reads `text`'s fields in `body`.
    static func reading<T>(_ text: String, _ body: (inout RecordText) throws -> T) throws -> T {
        var text = text
        return try text.withUTF8 { bytes in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "("), bytes[bytes.count - 1] == UInt8(ascii: ")") else {
                throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self))
            }
            var record = RecordText(bytes: bytes)
            return try body(&record)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next field's bytes, nil for NULL, and whether they hold doubled
    /// quotes or backslashes still to be undone.
    private mutating func nextField() throws -> (range: Range<Int>, escaped: Bool)? {
        guard start < bytes.count else { throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self)) }
        let separators: (UInt8, UInt8) = (UInt8(ascii: ","), UInt8(ascii: ")"))
        if bytes[start] == separators.0 || bytes[start] == separators.1 {
            start += 1
            return nil
        }
        guard bytes[start] == UInt8(ascii: "\"") else {
            var end = start
            while end < bytes.count, bytes[end] != separators.0, bytes[end] != separators.1 { end += 1 }
            defer { start = end + 1 }
            return (start..<end, false)
        }
        var end = start + 1, escaped = false
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\\"):
                escaped = true
                end += 2
            case UInt8(ascii: "\"") where end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\""):
                escaped = true
                end += 2
            case UInt8(ascii: "\""):
                defer { start = end + 2 }
                return (start + 1..<end, escaped)
            default:
                end += 1
            }
        }
        throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self))
    }

    /// The next field as text.
    mutating func text() throws -> String? {
        guard let (range, escaped) = try nextField() else { return nil }
        guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            // A doubled quote or a backslash stands for the byte after it.
            if bytes[index] == UInt8(ascii: "\\") || bytes[index] == UInt8(ascii: "\"") { index += 1 }
            unescaped.append(bytes[index])
            index += 1
        }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// The next field as an integer.
    mutating func integer() throws -> Int64? {
        guard let (range, _) = try nextField() else { return nil }
        guard case .success(let number) = Int64.decimal(bytes.extracting(range).span) else {
            throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self))
        }
        return number
    }

    /// The next field as a UUID.
    mutating func uuid() throws -> UUID? {
        guard let (range, _) = try nextField() else { return nil }
        guard let id = UUID(utf8: UnsafeBufferPointer(rebasing: bytes[range]).span) else {
            throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self))
        }
        return id
    }

    /// The next field as a boolean: `t` or `f`.
    mutating func boolean() throws -> Bool? {
        guard let (range, _) = try nextField() else { return nil }
        guard range.count == 1, bytes[range.lowerBound] == UInt8(ascii: "t") || bytes[range.lowerBound] == UInt8(ascii: "f") else {
            throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self))
        }
        return bytes[range.lowerBound] == UInt8(ascii: "t")
    }

    /// The next field, which may not be NULL.
    mutating func required<T>(_ read: (inout RecordText) throws -> T?) throws -> T {
        guard let value = try read(&self) else { throw MalformedRecord(text: String(decoding: bytes, as: UTF8.self)) }
        return value
    }
}

/// A row the server sent that is not a row value of the columns asked for.
struct MalformedRecord: Error, CustomStringConvertible {
    let text: String
    var description: String { "the server sent a row of fetches that cannot be read: \(text.prefix(200))" }
}
