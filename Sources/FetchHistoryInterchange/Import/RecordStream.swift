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
                guard try nextByte(skippingNewlines: true) != nil else { throw cutShortInArray() }
                try record(body)
                let after = try nextByte(skippingNewlines: true)
                if after == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard after != nil else { throw cutShortInArray() }
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

    /// Refuses input whose first line, at `position`, is not one JSON value
    /// (an export's first byte is `{` or `[`, but a line such as `42` is
    /// JSON, and `record` says it is not an object): text, TSV, CSV or a
    /// database is not an export, and is called what it is.
    mutating func refuseUnlessJSON() throws {
        // The first line whole, or enough of it to tell, whatever the chunk size.
        while !input.sourceEnded, !input.bytes[position...].contains(UInt8(ascii: "\n")), input.bytes.count - position < 4096 {
            _ = try input.refill(keepingFrom: position)
            position = 0
        }
        let bytes = input.bytes
        var parser = JSONParser(bytes: bytes, from: position)
        if (try? parser.value()) != nil {
            parser.skipWhitespace(newlines: false)
            if parser.isAtEnd || parser.current == UInt8(ascii: "\n") { return }
        }
        let lineEnd = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        var error = importError(at: position, ForeignInput(firstLine: bytes[position..<lineEnd]).message)
        error.problem = .notAnExport
        throw error
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

    /// Passes a UTF-8 byte order mark at the very start, which some editors
    /// write (Windows' Notepad, Excel's "UTF-8" text): the records follow it.
    mutating func skipByteOrderMark() throws {
        while input.bytes.count - position < 3, !input.sourceEnded {
            _ = try input.refill(keepingFrom: position)
            position = 0
        }
        if input.bytes[position...].starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }
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
            } catch where error.inputEnded {
                // Wherever the parser stopped, the record's start is what helps.
                var error = importError(at: start, "the input ends inside this record, as if it was cut short", record: recordNumber)
                error.problem = .cutShort
                throw error
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

    /// The input ended inside the JSON array, after `recordNumber` records.
    private mutating func cutShortInArray() -> ImportError {
        let place = recordNumber == 0 ? "before its first record" : "after record \(recordNumber)"
        var error = importError(at: position, "the input ends inside the JSON array, \(place), as if it was cut short")
        error.problem = .cutShort
        return error
    }

    private mutating func importError(at offset: Int, _ message: String, record: Int? = nil) -> ImportError {
        let (line, column) = input.lineAndColumn(of: offset)
        return ImportError(line: line, column: column, record: record, message: message)
    }
}
