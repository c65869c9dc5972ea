import FetchHistoryModel
import FoundationEssentials

/// The reader's walk through the input: between records it only looks at
/// white space and separators, reading more whenever it reaches the end of
/// what it has.
struct RecordStream {
    var input: InputBuffer
    /// Offset in `input.bytes` of the first byte not yet read.
    var position = 0
    var fields = RecordFields()
    var recordNumber = 0

    init(input: InputBuffer) {
        self.input = input
    }

    mutating func readArray(_ body: (ParsedRecord) throws -> Void) throws {
        position += 1
        if try nextByte(skippingNewlines: true) == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                _ = try nextByte(skippingNewlines: true)
                try record(body)
                if try nextByte(skippingNewlines: true) == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                var parser = JSONParser(bytes: input.bytes, from: position)
                do {
                    try parser.expect("]", "',' or ']' after a record")
                } catch {
                    throw importError(at: error.offset, error.message)
                }
                position = parser.index
                break
            }
        }
        if try nextByte(skippingNewlines: true) != nil {
            throw importError(at: position, "unexpected text after the closing ']'")
        }
    }

    mutating func readLines(_ body: (ParsedRecord) throws -> Void) throws {
        while let byte = try nextByte(skippingNewlines: false) {
            if byte == UInt8(ascii: "\n") {
                position += 1
                continue
            }
            try record(body)
            guard let after = try nextByte(skippingNewlines: false) else { break }
            guard after == UInt8(ascii: "\n") else {
                throw importError(at: position, "expected the end of the line after a record")
            }
            position += 1
        }
    }

    /// Skips white space, reading more as needed, and returns the byte after
    /// it (left unread); nil at the end of the input.
    mutating func nextByte(skippingNewlines newlines: Bool) throws -> UInt8? {
        while true {
            do {
                var parser = JSONParser(bytes: input.bytes, from: position)
                parser.skipWhitespace(newlines: newlines)
                position = parser.index
                if let byte = parser.current { return byte }
            }
            if input.sourceEnded { return nil }
            _ = try input.refill(keepingFrom: position)
            position = 0
        }
    }

    /// Reads the record at `position` and hands it to `body`. A
    /// record that runs past what has been read is read again from its
    /// start once more is.
    private mutating func record(_ body: (ParsedRecord) throws -> Void) throws {
        recordNumber += 1
        var start = position
        while true {
            do {
                // The parser lives in this block only: it holds the input's
                // bytes, which a refill below must own alone not to copy them.
                var parser = JSONParser(bytes: input.bytes, from: start)
                try fields.read(&parser)
                position = parser.index
                break
            } catch where error.inputEnded && !input.sourceEnded {
                do {
                    _ = try input.refill(keepingFrom: start)
                } catch is InputBuffer.Overflow {
                    throw importError(at: start, "the record starting here is longer than \(InputBuffer.maximumSize >> 20) MiB", record: recordNumber)
                }
                start = 0
            } catch {
                throw importError(at: error.offset, error.message, record: recordNumber)
            }
        }
        let fetch: Fetch
        do {
            fetch = try fields.fetch(in: input.bytes)
        } catch {
            throw importError(at: start, error.message, record: recordNumber)
        }
        let (line, column) = input.lineAndColumn(of: start)
        try body(ParsedRecord(fetch: fetch, number: recordNumber, line: line, column: column))
    }

    private mutating func importError(at offset: Int, _ message: String, record: Int? = nil) -> ImportError {
        let (line, column) = input.lineAndColumn(of: offset)
        return ImportError(line: line, column: column, record: record, message: message)
    }
}
