import Foundation

/// Why an import file was refused, and where.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line and column of the problem in the input.
    public var line: Int
    public var column: Int
    /// 1-based number of the record the problem is in, if it is in one.
    public var record: Int?
    public var message: String

    public var description: String {
        let place = "line \(line), column \(column)"
        return record.map { "record \($0) (\(place)): \(message)" } ?? "\(place): \(message)"
    }
}

/// Reads export records back into fetches: a JSON array (`export --format
/// json`) or one object per line (`--format jsonl`), told apart by the first
/// character. Records are validated one by one as they are read, so a bad
/// record is reported with its position before anything depends on it.
///
/// ```swift
/// try FetchRecordReader(data: file).forEach { fetch in … }
/// ```
public struct FetchRecordReader {
    private let data: Data

    public init(data: Data) {
        self.data = data
    }

    /// Calls `body` with each record in order. Ids repeated within the input
    /// are refused.
    public func forEach(_ body: (Fetch) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var context = Context(bytes: bytes, body: body)
            var parser = JSONParser(bytes: bytes)
            parser.skipWhitespace()
            if parser.current == UInt8(ascii: "[") {
                try context.readArray(&parser)
            } else {
                try context.readLines()
            }
            }
        }
    }
}

private struct Context {
    let bytes: UnsafeBufferPointer<UInt8>
    let body: (Fetch) throws -> Void
    var seen: [UUID: Int] = [:]
    var recordNumber = 0

    init(bytes: UnsafeBufferPointer<UInt8>, body: @escaping (Fetch) throws -> Void) {
        self.bytes = bytes
        self.body = body
    }

    mutating func readArray(_ parser: inout JSONParser) throws {
        parser.index += 1
        parser.skipWhitespace()
        if parser.current == UInt8(ascii: "]") {
            parser.index += 1
        } else {
            while true {
                parser.skipWhitespace()
                try record(&parser)
                parser.skipWhitespace()
                if parser.current == UInt8(ascii: ",") { parser.index += 1; continue }
                try syntax { () throws(JSONSyntaxError) in try parser.expect("]", "',' or ']' after a record") }
                break
            }
        }
        parser.skipWhitespace()
        if !parser.isAtEnd { throw position(parser.index, "unexpected text after the closing ']'") }
    }

    mutating func readLines() throws {
        var parser = JSONParser(bytes: bytes)
        while !parser.isAtEnd {
            parser.skipWhitespace(newlines: false)
            if parser.current == UInt8(ascii: "\n") { parser.index += 1; continue }
            if parser.isAtEnd { break }
            try record(&parser)
            parser.skipWhitespace(newlines: false)
            if parser.isAtEnd { break }
            guard parser.current == UInt8(ascii: "\n") else {
                throw position(parser.index, "expected the end of the line after a record")
            }
            parser.index += 1
        }
    }

    private mutating func record(_ parser: inout JSONParser) throws {
        recordNumber += 1
        let start = parser.index
        let fields = try syntax { () throws(JSONSyntaxError) in try RecordFields(&parser) }
        let fetch: Fetch
        do {
            fetch = try Self.fetch(from: fields)
        } catch {
            throw position(start, error.message, record: recordNumber)
        }
        if let first = seen[fetch.id] {
            throw position(start, "the id \(fetch.id.lowercased) was already used by record \(first)", record: recordNumber)
        }
        seen[fetch.id] = recordNumber
        try body(fetch)
    }

    private func syntax<T>(_ body: () throws(JSONSyntaxError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw position(error.offset, error.message, record: nil)
        }
    }

    /// The error for byte `offset`, with its line and column.
    private func position(_ offset: Int, _ message: String, record: Int? = nil) -> ImportError {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return ImportError(line: line, column: offset - lineStart + 1, record: record, message: message)
    }

    private struct RecordError: Error {
        var message: String
    }

    /// Validates one export record and turns it into a fetch.
    private static func fetch(from fields: RecordFields) throws(RecordError) -> Fetch {
        if let notAnObject = fields.notAnObject {
            throw RecordError(message: "expected an object, found \(notAnObject.typeName)")
        }
        func string(_ key: String) throws(RecordError) -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw RecordError(message: "'\(key)' must be a string, not \(other.typeName)")
            }
        }
        func required(_ key: String) throws(RecordError) -> String {
            guard let text = try string(key) else { throw RecordError(message: "'\(key)' is missing") }
            return text
        }
        func integer(_ key: String) throws(RecordError) -> Int64? {
            switch fields[key] {
            case nil, .null?: return nil
            case .number(let text)?:
                guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
                    throw RecordError(message: "'\(key)' must be a whole number, not \(text)")
                }
                guard let number = Int64(text) else { throw RecordError(message: "'\(key)' is out of range: \(text.prefix(40))") }
                return number
            case let other?: throw RecordError(message: "'\(key)' must be a number, not \(other.typeName)")
            }
        }
        func uuid(_ key: String) throws(RecordError) -> UUID {
            var text = try required(key)
            guard let id = text.withUTF8(UUID.init(utf8:)) else { throw RecordError(message: "'\(key)' is not a UUID: \(text.prefix(40))") }
            return id
        }
        func time(_ key: String) throws(RecordError) -> Timestamp? {
            guard let text = try string(key) else { return nil }
            guard text.hasSuffix("Z") || text.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" }),
                  let time = Timestamp(iso8601: text)
            else { throw RecordError(message: "'\(key)' is not an ISO 8601 UTC time: \(text.prefix(40))") }
            return time
        }

        let id = try uuid("id")
        let session = try uuid("session")
        let source = try required("source")
        let statusText = try required("outcome")
        guard let status = FetchStatus(rawValue: statusText) else {
            let names = FetchStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw RecordError(message: "'outcome' must be one of \(names), not '\(statusText.prefix(40))'")
        }
        guard let startedAt = try time("startedAt") else { throw RecordError(message: "'startedAt' is missing") }
        let endedAt = try time("endedAt")
        let duration = try integer("durationMs")
        let value = try integer("value")
        let error = try string("error")
        let reasonText = try string("cancelReason")
        let httpStatus = try integer("status")
        let bytes = try integer("bytes")
        if (httpStatus == nil) != (bytes == nil) { throw RecordError(message: "'status' and 'bytes' must be given together") }
        var response: SourceResponse?
        if let httpStatus, let bytes {
            guard (0...999).contains(httpStatus), bytes >= 0, let byteCount = Int(exactly: bytes) else {
                throw RecordError(message: "'status' must be 0…999 and 'bytes' not negative")
            }
            response = SourceResponse(status: Int(httpStatus), bytes: byteCount)
        }

        var script: FetchScript?
        if let tappedAt = try time("tappedAt") {
            let timeout = try integer("timeoutMs")
            if let timeout, timeout < 0 { throw RecordError(message: "'timeoutMs' is negative") }
            var end: FetchScript.End?
            if let name = try string("endedBy") {
                let answerValue = try integer("answerValue")
                guard let at = try time("endedByAt") else { throw RecordError(message: "'endedByAt' is missing") }
                guard let cause = FetchEnd.Cause(
                    name: name, value: answerValue.flatMap { Int(exactly: $0) }, error: try string("answerError")
                ) else {
                    throw RecordError(message: "'endedBy' must be answer (with answerValue), failure (with answerError), cancel, fetch or timeout, not '\(name.prefix(40))'")
                }
                end = FetchScript.End(cause: cause, at: at)
            }
            script = FetchScript(tappedAt: tappedAt, timeoutMilliseconds: timeout, end: end)
        }

        let isEnded = ![.running, .interrupted].contains(status)
        if isEnded != (endedAt != nil) {
            throw RecordError(message: isEnded ? "'endedAt' is missing for a \(status.rawValue) fetch" : "'endedAt' must be null for a \(status.rawValue) fetch")
        }
        if (endedAt == nil) != (duration == nil) {
            throw RecordError(message: "'durationMs' must be given exactly when 'endedAt' is")
        }
        if let duration, duration < 0 { throw RecordError(message: "'durationMs' is negative") }
        if (status == .succeeded) != (value != nil) {
            throw RecordError(message: status == .succeeded ? "'value' is missing for a succeeded fetch" : "'value' must be null for a \(status.rawValue) fetch")
        }
        if status != .failed, error != nil { throw RecordError(message: "'error' must be null for a \(status.rawValue) fetch") }
        if status != .cancelled, reasonText != nil {
            throw RecordError(message: "'cancelReason' must be null for a \(status.rawValue) fetch")
        }

        let outcome: FetchOutcome?
        switch status {
        case .running: outcome = nil
        case .succeeded:
            guard let value, let number = Int(exactly: value) else { throw RecordError(message: "'value' is out of range") }
            outcome = .succeeded(number)
        case .failed:
            guard let error else { throw RecordError(message: "'error' is missing for a failed fetch") }
            outcome = .failed(error)
        case .cancelled:
            guard let reason = CancelReason(rawValue: reasonText ?? CancelReason.user.rawValue) else {
                throw RecordError(message: "'cancelReason' must be user or superseded, not '\(reasonText?.prefix(40) ?? "")'")
            }
            outcome = .cancelled(reason)
        case .timedOut: outcome = .timedOut
        case .interrupted: outcome = .interrupted
        }
        return Fetch(
            id: id, sessionID: session, source: source, startedAt: startedAt, endedAt: endedAt,
            durationMilliseconds: duration, outcome: outcome, response: response, script: script
        )
    }
}

/// One record's values by key, read without a dictionary: an export has a
/// fixed set of keys, so each has a slot; unknown keys are read and dropped.
private struct RecordFields {
    static let keys = [
        "id", "session", "source", "outcome", "cancelReason", "value", "error", "startedAt", "endedAt",
        "durationMs", "status", "bytes", "tappedAt", "timeoutMs", "endedBy", "endedByAt", "answerValue",
        "answerError",
    ]

    private var slots: [JSONValue?] = Array(repeating: nil, count: keys.count)
    /// The value, when the record is not an object at all.
    private(set) var notAnObject: JSONValue?

    init(_ parser: inout JSONParser) throws(JSONSyntaxError) {
        guard parser.current == UInt8(ascii: "{") else {
            notAnObject = try parser.parseValue()
            return
        }
        var unknown: Set<String> = []
        var next = 0
        try parser.parseMembers { key, keyOffset, parser throws(JSONSyntaxError) in
            let value = try parser.parseValue(depth: 1)
            // Exports write the keys in order: try the one after the last first.
            let slot = next < Self.keys.count && Self.keys[next] == key ? next : Self.keys.firstIndex(of: key)
            if let slot {
                next = slot + 1
                guard slots[slot] == nil else { throw parser.error("the key '\(key)' appears twice", at: keyOffset) }
                slots[slot] = value
            } else {
                guard unknown.insert(key).inserted else { throw parser.error("the key '\(key)' appears twice", at: keyOffset) }
            }
        }
    }

    subscript(key: String) -> JSONValue? {
        Self.keys.firstIndex(of: key).flatMap { slots[$0] }
    }
}
