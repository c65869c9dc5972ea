@_spi(Bytes) import FetchHistoryModel
import FoundationEssentials

/// A record's values, found in the input and left there: one slot per
/// known key (no dictionary, no value tree), decoded into the fetch's
/// fields only once the record has been read whole. Unknown keys are read
/// and dropped. One instance serves every record of an import.
///
/// Between records it keeps positions, not the input: `fetch(in:)` is
/// handed the bytes `read` parsed, so that the input buffer is the only
/// owner of its storage when it refills (a second owner makes it copy).
struct RecordFields {
    private var slots = [JSONToken?](repeating: nil, count: RecordKey.allCases.count)
    /// Each key as an export writes it, with its quotes and colon, made
    /// once for an import rather than on every member.
    private let quotedKeys = RecordKey.allCases.map(\.quoted)
    /// Strings of `slots` that hold escapes, decoded (rare).
    private var decoded: [RecordKey: String] = [:]
    /// The value, when the record is not an object at all.
    private var notAnObject: JSONToken?
    /// The input the slots point into, while `fetch(in:)` runs.
    private var bytes: [UInt8] = []
    /// Reads the record at the parser's position (after white space).
    mutating func read(_ parser: inout JSONParser) throws(JSONSyntaxError) {
        for slot in slots.indices { slots[slot] = nil }
        if !decoded.isEmpty { decoded.removeAll(keepingCapacity: true) }
        parser.skipWhitespace()
        guard parser.current == UInt8(ascii: "{") else {
            notAnObject = try parser.value()
            return
        }
        notAnObject = nil
        guard parser.enterObject() else { return }
        var unknown: Set<String> = []
        var next = 0
        repeat {
            // Exports write the keys in order: try the one after the last first.
            let keyOffset: Int
            let slot: RecordKey
            if let expected = RecordKey(rawValue: next), parser.key(quotedKeys[next]) ?? parser.key(expected.utf8) {
                keyOffset = parser.index - quotedKeys[next].count
                slot = expected
            } else {
                let key = try parser.key()
                keyOffset = key.start - 1
                // A field's value is parsed as if on its own (depth 0): its nesting is what counts,
                // not the record around it, so a value `fetch` took from a body (parsed from depth 0)
                // imports back whatever its nesting.
                guard let known = try Self.slot(of: key, in: parser) else {
                    _ = try parser.value(depth: 0)
                    let name = try parser.string(key)
                    guard unknown.insert(name).inserted else { throw parser.error("the key '\(name)' appears twice", at: keyOffset) }
                    continue
                }
                slot = known
            }
            let value = try parser.value(depth: 0)
            next = slot.rawValue + 1
            guard slots[slot.rawValue] == nil else {
                throw parser.error("the key '\(slot.name)' appears twice", at: keyOffset)
            }
            slots[slot.rawValue] = value
            if value.isEscaped { decoded[slot] = try parser.string(value) }
        } while try parser.nextMember()
    }

    /// The known key `key` names, if any.
    private static func slot(of key: JSONToken, in parser: JSONParser) throws(JSONSyntaxError) -> RecordKey? {
        if key.isEscaped {
            let name = try parser.string(key)
            return RecordKey.allCases.first { $0.name == name }
        }
        let text = parser.text(of: key)
        return RecordKey.allCases.first { $0.utf8.count == text.count && JSONParser.bytes(parser.bytes, at: key.start, are: $0.utf8) }
    }

    struct RecordError: Error {
        var message: String
    }

    /// Validates the record and turns it into a fetch. `bytes` are those
    /// `read` parsed; they are let go of before this returns.
    mutating func fetch(in bytes: [UInt8]) throws(RecordError) -> Fetch {
        self.bytes = bytes
        defer { self.bytes = [] }
        return try fetch()
    }

    private func fetch() throws(RecordError) -> Fetch {
        if let notAnObject {
            throw RecordError(message: "expected an object, found \(notAnObject.kind.typeName)")
        }
        let id = try uuid(.id)
        let session = try uuid(.session)
        let source = try required(.source)
        let statusText = try required(.outcome)
        guard let status = FetchStatus(rawValue: statusText) else {
            let names = FetchStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw RecordError(message: "'outcome' must be one of \(names), not '\(statusText.prefix(40))'")
        }
        guard let startedAt = try time(.startedAt) else { throw RecordError(message: "'startedAt' is missing") }
        let endedAt = try time(.endedAt)
        let duration = try integer(.durationMs)
        let value = fetchValue(.value, keepingNull: status == .succeeded)
        let error = try string(.error)
        let reasonText = try string(.cancelReason)
        let httpStatus = try integer(.status)
        let bytes = try integer(.bytes)
        if (httpStatus == nil) != (bytes == nil) { throw RecordError(message: "'status' and 'bytes' must be given together") }
        var response: SourceResponse?
        if let httpStatus, let bytes {
            guard (0...999).contains(httpStatus), bytes >= 0, let byteCount = Int(exactly: bytes) else {
                throw RecordError(message: "'status' must be 0…999 and 'bytes' not negative")
            }
            response = SourceResponse(status: Int(httpStatus), bytes: byteCount)
        }
        let body = try body(ofAnswerThat: status, hasResponse: response != nil)
        response?.body = body

        let reason = try reasonText.map { text throws(RecordError) in
            guard let reason = CancelReason(rawValue: text) else {
                throw RecordError(message: "'cancelReason' must be user, superseded or terminated, not '\(text.prefix(40))'")
            }
            return reason
        }
        let script = try script(endingAs: status, cancelReason: reason ?? .user)
        let isEnded = status != .running && status != .interrupted
        if isEnded != (endedAt != nil) {
            throw RecordError(message: isEnded ? "'endedAt' is missing for \(Self.aFetch(status))" : "'endedAt' must be null for \(Self.aFetch(status))")
        }
        if (endedAt == nil) != (duration == nil) {
            throw RecordError(message: "'durationMs' must be given exactly when 'endedAt' is")
        }
        if let duration, duration < 0 { throw RecordError(message: "'durationMs' is negative") }
        if (status == .succeeded) != (value != nil) {
            throw RecordError(message: status == .succeeded ? "'value' is missing for a succeeded fetch" : "'value' must be null for \(Self.aFetch(status))")
        }
        if status != .failed, error != nil { throw RecordError(message: "'error' must be null for \(Self.aFetch(status))") }
        if status != .cancelled, reason != nil {
            throw RecordError(message: "'cancelReason' must be null for \(Self.aFetch(status))")
        }

        let outcome: FetchOutcome?
        switch status {
        case .running: outcome = nil
        case .succeeded:
            guard let value else { throw RecordError(message: "'value' is missing for a succeeded fetch") }
            outcome = .succeeded(value)
        case .failed:
            guard let error else { throw RecordError(message: "'error' is missing for a failed fetch") }
            outcome = .failed(error)
        case .cancelled: outcome = .cancelled(reason ?? .user)
        case .timedOut: outcome = .timedOut
        case .interrupted: outcome = .interrupted
        }
        if response != nil, status != .succeeded, status != .failed {
            throw RecordError(message: "'outcome' is \(status.rawValue) but 'status' is given: only an answer has a status")
        }
        switch (outcome, script?.end?.cause) {
        case (.succeeded(let value)?, .answer(let answer)?) where answer != value:
            throw RecordError(message: "'value' and 'answerValue' differ: the answer is what succeeded")
        case (.failed(let error)?, .failure(let answer)?) where answer != error:
            throw RecordError(message: "'error' and 'answerError' differ: the failure is what was recorded")
        default: break
        }
        return Fetch(
            id: id, sessionID: session, source: source, startedAt: startedAt, endedAt: endedAt,
            durationMilliseconds: duration, outcome: outcome, response: response, script: script,
            host: try string(.host) ?? ""
        )
    }

    /// What the user and the source did (`tappedAt` … `answerError`), if
    /// anything was recorded, refused where it says otherwise than the
    /// outcome `status` (with `cancelReason`), as recording never writes
    /// it: an answer ends in success, a failure in failure, a cancel tap in
    /// a cancel (superseded: a fetch tap), a deadline in a timeout, and a
    /// fetch running or interrupted has no end.
    private func script(endingAs status: FetchStatus, cancelReason: CancelReason) throws(RecordError) -> FetchScript? {
        let tappedAt = try time(.tappedAt)
        let timeout = try integer(.timeoutMs)
        let name = try string(.endedBy)
        let endedAt = try time(.endedByAt)
        // A succeeded fetch may have answered null itself.
        let answerValue = fetchValue(.answerValue, keepingNull: name == "answer")
        let answerError = try string(.answerError)
        guard let tappedAt else {
            let given: [(RecordKey, Bool)] = [
                (.timeoutMs, timeout != nil), (.endedBy, name != nil), (.endedByAt, endedAt != nil),
                (.answerValue, answerValue != nil), (.answerError, answerError != nil),
            ]
            if let (key, _) = given.first(where: \.1) {
                throw RecordError(message: "'\(key.name)' is given but 'tappedAt' is null: without a tap nothing was timed")
            }
            return nil
        }
        if let timeout, timeout < 0 { throw RecordError(message: "'timeoutMs' is negative") }
        let names = ["answer", "failure", "cancel", "fetch", "timeout"]
        if let name, !names.contains(name) {
            throw RecordError(message: "'endedBy' must be \(names.joined(separator: ", ")) or null, not '\(name.prefix(40))'")
        }
        let expected: String? = switch status {
        case .running, .interrupted: nil
        case .succeeded: "answer"
        case .failed: "failure"
        case .cancelled: cancelReason == .superseded ? "fetch" : "cancel"
        case .timedOut: "timeout"
        }
        guard name == expected else {
            let reason = status == .cancelled ? " (\(cancelReason.rawValue))" : ""
            throw RecordError(message: "'outcome' is \(status.rawValue)\(reason) but 'endedBy' is \(name.map { "'\($0)'" } ?? "null")")
        }
        if name != "answer", answerValue != nil { throw RecordError(message: "'endedBy' is \(name.map { "'\($0)'" } ?? "null") but 'answerValue' is given") }
        if name != "failure", answerError != nil { throw RecordError(message: "'endedBy' is \(name.map { "'\($0)'" } ?? "null") but 'answerError' is given") }
        guard let name else {
            if endedAt != nil { throw RecordError(message: "'endedByAt' is given but 'endedBy' is null") }
            return FetchScript(tappedAt: tappedAt, timeoutMilliseconds: timeout)
        }
        guard let endedAt else { throw RecordError(message: "'endedBy' is '\(name)' but 'endedByAt' is null") }
        let cause: FetchEnd.Cause
        switch name {
        case "answer":
            guard let answerValue else { throw RecordError(message: "'endedBy' is 'answer' but 'answerValue' is missing") }
            cause = .answer(answerValue)
        case "failure":
            guard let answerError else { throw RecordError(message: "'endedBy' is 'failure' but 'answerError' is null") }
            cause = .failure(answerError)
        case "cancel": cause = .cancelTap
        case "fetch": cause = .fetchTap
        default: cause = .timeout
        }
        return FetchScript(tappedAt: tappedAt, timeoutMilliseconds: timeout, end: FetchScript.End(cause: cause, at: endedAt))
    }

    /// The start of a failed answer's body (`body`, `contentType`,
    /// `truncated`), if the record keeps one: refused where recording
    /// never writes one — without a status, for an answer that succeeded,
    /// a Content-Type or a truncation without a body.
    private func body(ofAnswerThat status: FetchStatus, hasResponse: Bool) throws(RecordError) -> ResponseBody? {
        let text = try string(.body)
        let contentType = try string(.contentType)
        let truncated = try bool(.truncated)
        guard let text else {
            if contentType != nil { throw RecordError(message: "'contentType' is given but 'body' is null") }
            if truncated != nil { throw RecordError(message: "'truncated' is given but 'body' is null") }
            return nil
        }
        guard hasResponse else { throw RecordError(message: "'body' is given but 'status' is null: only an answer has a body") }
        guard status == .failed else { throw RecordError(message: "'body' must be null for \(Self.aFetch(status)): only a failed answer keeps its body") }
        guard let truncated else { throw RecordError(message: "'truncated' must be true or false when 'body' is given") }
        return ResponseBody(text: text, contentType: contentType, isTruncated: truncated)
    }

    /// "a failed fetch", "an interrupted fetch".
    private static func aFetch(_ status: FetchStatus) -> String {
        (status.rawValue.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + status.rawValue + " fetch"
    }

    // MARK: - Values, decoded straight from the input

    /// The string token at `key`; nil for null or no key.
    private func stringToken(_ key: RecordKey) throws(RecordError) -> JSONToken? {
        guard let token = slots[key.rawValue], token.kind != .null else { return nil }
        guard token.kind == .string else {
            throw RecordError(message: "'\(key.name)' must be a string, not \(token.kind.typeName)")
        }
        return token
    }

    private func string(_ key: RecordKey) throws(RecordError) -> String? {
        guard let token = try stringToken(key) else { return nil }
        guard token.isEscaped, let text = decoded[key] else { return String(decoding: text(of: token), as: UTF8.self) }
        return text
    }

    private func required(_ key: RecordKey) throws(RecordError) -> String {
        guard let text = try string(key) else { throw RecordError(message: "'\(key.name)' is missing") }
        return text
    }

    /// `body` applied to the UTF-8 of the string at `key`, without making a
    /// String; nil for null or no key.
    private func withUTF8<T>(_ key: RecordKey, _ body: (ArraySlice<UInt8>) -> T) throws(RecordError) -> T? {
        guard let token = try stringToken(key) else { return nil }
        guard token.isEscaped, let text = decoded[key] else { return body(self.text(of: token)) }
        return body(ArraySlice(text.utf8))
    }

    private func text(of token: JSONToken) -> ArraySlice<UInt8> {
        bytes[token.start..<token.end]
    }

    /// The JSON value at `key` as a fetched value, exactly as written but
    /// for the white space between its tokens (an export has none, so
    /// export → import → export is byte-identical); nil when there is no
    /// such key, and for null unless `keepingNull` (a fetch that succeeded
    /// may have fetched null itself).
    private func fetchValue(_ key: RecordKey, keepingNull: Bool) -> FetchValue? {
        guard let token = slots[key.rawValue], token.kind != .null || keepingNull else { return nil }
        return FetchValue(token, in: bytes)
    }

    private func bool(_ key: RecordKey) throws(RecordError) -> Bool? {
        guard let token = slots[key.rawValue], token.kind != .null else { return nil }
        guard token.kind == .bool else {
            throw RecordError(message: "'\(key.name)' must be true or false, not \(token.kind.typeName)")
        }
        return text(of: token).first == UInt8(ascii: "t")
    }

    private func integer(_ key: RecordKey) throws(RecordError) -> Int64? {
        guard let token = slots[key.rawValue], token.kind != .null else { return nil }
        guard token.kind == .number else {
            throw RecordError(message: "'\(key.name)' must be a number, not \(token.kind.typeName)")
        }
        let text = text(of: token)
        switch Int64.decimal(text.span) {
        case .success(let number):
            return number
        case .failure(.notAWholeNumber):
            throw RecordError(message: "'\(key.name)' must be a whole number, not \(String(decoding: text, as: UTF8.self))")
        case .failure(.outOfRange):
            throw RecordError(message: "'\(key.name)' is out of range: \(String(decoding: text, as: UTF8.self).prefix(40))")
        }
    }

    private func uuid(_ key: RecordKey) throws(RecordError) -> UUID {
        guard let id = try withUTF8(key, { UUID(utf8: $0.span) }) else { throw RecordError(message: "'\(key.name)' is missing") }
        guard let id else { throw RecordError(message: "'\(key.name)' is not a UUID: \(try required(key).prefix(40))") }
        return id
    }

    /// The times an export can write as import reads them: years 0000 to 9999, in UTC.
    private static let writableTimes = Timestamp.daysSince1970(year: 0, month: 1, day: 1) * 86_400_000
        ..< Timestamp.daysSince1970(year: 10_000, month: 1, day: 1) * 86_400_000

    /// An ISO 8601 time that names its zone (`Z` or an offset): an export
    /// never depends on the importing machine's zone. One that its offset
    /// takes outside years 0000–9999 is refused: exported in UTC, it could
    /// not be imported again.
    private func time(_ key: RecordKey) throws(RecordError) -> Timestamp? {
        let parsed = try withUTF8(key) { text -> Timestamp? in
            guard let written = ISO8601DateTime(utf8: text), let offset = written.zoneOffsetMilliseconds else { return nil }
            return Timestamp(millisecondsSince1970: written.millisecondsAsIfUTC - offset)
        }
        guard let parsed else { return nil }
        guard let parsed else { throw RecordError(message: "'\(key.name)' is not an ISO 8601 UTC time: \(try required(key).prefix(40))") }
        guard Self.writableTimes.contains(parsed.millisecondsSince1970) else {
            throw RecordError(message: "'\(key.name)' is outside years 0000 to 9999 in UTC: \(try required(key).prefix(40))")
        }
        return parsed
    }
}
