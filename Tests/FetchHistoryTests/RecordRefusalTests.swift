import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// Every rule an imported record must keep: a record that breaks exactly one
/// is refused, at its place, in that rule's own words (what `import` prints).
/// Each record is an export record with one edit, so nothing else is wrong
/// with it.
@Suite("A record that breaks one rule is refused in that rule's words")
struct RecordRefusalTests {
    static let start = Timestamp(millisecondsSince1970: 1_763_805_600_000)  // 2025-11-22T10:00:00.000Z
    static let end = Timestamp(millisecondsSince1970: 1_763_805_600_030)    // 2025-11-22T10:00:00.030Z
    static let id = UUID(uuidString: "0198a3c4-5e6f-8a1b-9c2d-3e4f5a6b7c8d")!
    static let session = UUID(uuidString: "0198a3c4-5e6f-8000-8000-000000000001")!

    /// The export records the edits start from, one per kind of ending.
    enum Base: String, Sendable, CaseIterable {
        case succeeded, failed, cancelled, interrupted

        var fetch: Fetch {
            let ended = { (outcome: FetchOutcome, cause: FetchEnd.Cause, response: SourceResponse?) in
                Fetch(
                    id: RecordRefusalTests.id, sessionID: RecordRefusalTests.session, source: "random",
                    startedAt: RecordRefusalTests.start, endedAt: RecordRefusalTests.end, durationMilliseconds: 30,
                    outcome: outcome, response: response,
                    script: FetchScript(
                        tappedAt: RecordRefusalTests.start, timeoutMilliseconds: 5_000,
                        end: FetchScript.End(cause: cause, at: RecordRefusalTests.end)
                    )
                )
            }
            switch self {
            case .succeeded: return ended(.succeeded(7), .answer(7), nil)
            case .failed: return ended(.failed("HTTP 503"), .failure("HTTP 503"), SourceResponse(status: 503, bytes: 4))
            case .cancelled: return ended(.cancelled(.superseded), .fetchTap, nil)
            case .interrupted:
                return Fetch(
                    id: RecordRefusalTests.id, sessionID: RecordRefusalTests.session, source: "random",
                    startedAt: RecordRefusalTests.start, outcome: .interrupted,
                    script: FetchScript(tappedAt: RecordRefusalTests.start, timeoutMilliseconds: 5_000)
                )
            }
        }

        var line: String { FetchJSON.string(fetch) }
    }

    /// One edit of a base record, and what reading it must say.
    struct Edit: Sendable, CustomTestStringConvertible {
        var base: Base
        var from: String
        var to: String
        var message: String

        var testDescription: String { "\(base.rawValue): \(from) → \(to)" }

        /// The base record with the edit made; the edit must find its text exactly once.
        func line() throws -> String {
            let line = base.line
            try #require(line.components(separatedBy: from).count == 2, "\(from) is not once in \(line)")
            return line.replacingOccurrences(of: from, with: to)
        }
    }

    /// What reading `line` (one JSON line) throws, if anything.
    static func error(reading line: String) -> ImportError? {
        do {
            try FetchRecordReader(data: Data((line + "\n").utf8)).forEach { _ in }
            return nil
        } catch {
            return error as? ImportError
        }
    }

    static func read(_ line: String) throws -> [Fetch] {
        var fetches: [Fetch] = []
        try FetchRecordReader(data: Data((line + "\n").utf8)).forEach { fetches.append($0) }
        return fetches
    }

    static let idText = id.uuidString.lowercased()
    static let sessionText = session.uuidString.lowercased()
    static let startText = "2025-11-22T10:00:00.000Z"
    static let endText = "2025-11-22T10:00:00.030Z"

    @Test(arguments: [
        // The fields every record needs
        Edit(base: .succeeded, from: #""id":"\#(idText)""#, to: #""id":null"#, message: "'id' is missing"),
        Edit(base: .succeeded, from: #""id":"\#(idText)""#, to: #""id":7"#, message: "'id' must be a string, not a number"),
        Edit(base: .succeeded, from: #""id":"\#(idText)""#, to: #""id":"0198a3c4""#, message: "'id' is not a UUID: 0198a3c4"),
        Edit(base: .succeeded, from: #""session":"\#(sessionText)""#, to: #""session":"s-1""#, message: "'session' is not a UUID: s-1"),
        Edit(base: .succeeded, from: #""session":"\#(sessionText)""#, to: #""session":null"#, message: "'session' is missing"),
        Edit(base: .succeeded, from: #""source":"random""#, to: #""source":null"#, message: "'source' is missing"),
        Edit(base: .succeeded, from: #""source":"random""#, to: #""source":["random"]"#, message: "'source' must be a string, not an array"),
        Edit(base: .succeeded, from: #""outcome":"succeeded""#, to: #""outcome":null"#, message: "'outcome' is missing"),
        Edit(base: .succeeded, from: #""outcome":"succeeded""#, to: #""outcome":"exploded""#,
             message: "'outcome' must be one of running, succeeded, failed, cancelled, timed-out, interrupted, not 'exploded'"),
        Edit(base: .succeeded, from: #""outcome":"succeeded""#, to: #""outcome":true"#, message: "'outcome' must be a string, not a boolean"),
        Edit(base: .succeeded, from: #""startedAt":"\#(startText)""#, to: #""startedAt":null"#, message: "'startedAt' is missing"),
        // Times name their zone
        Edit(base: .succeeded, from: #""startedAt":"\#(startText)""#, to: #""startedAt":"2025-11-22T10:00:00.000""#,
             message: "'startedAt' is not an ISO 8601 UTC time: 2025-11-22T10:00:00.000"),
        Edit(base: .succeeded, from: #""startedAt":"\#(startText)""#, to: #""startedAt":"yesterday""#,
             message: "'startedAt' is not an ISO 8601 UTC time: yesterday"),
        Edit(base: .succeeded, from: #""endedAt":"\#(endText)""#, to: #""endedAt":"2025-11-22 10:00:00.030""#,
             message: "'endedAt' is not an ISO 8601 UTC time: 2025-11-22 10:00:00.030"),
        Edit(base: .succeeded, from: #""tappedAt":"\#(startText)""#, to: #""tappedAt":"2025-11-22""#,
             message: "'tappedAt' is not an ISO 8601 UTC time: 2025-11-22"),
        // Times an offset takes outside years 0000–9999: exported in UTC, they could not come back
        Edit(base: .succeeded, from: #""startedAt":"\#(startText)""#, to: #""startedAt":"0000-01-01T00:00:00.000+01:00""#,
             message: "'startedAt' is outside years 0000 to 9999 in UTC: 0000-01-01T00:00:00.000+01:00"),
        Edit(base: .succeeded, from: #""endedAt":"\#(endText)""#, to: #""endedAt":"9999-12-31T23:30:00.000-01:00""#,
             message: "'endedAt' is outside years 0000 to 9999 in UTC: 9999-12-31T23:30:00.000-01:00"),
        // An end exactly for an ended outcome, a duration exactly with an end
        Edit(base: .succeeded, from: #""endedAt":"\#(endText)","durationMs":30"#, to: #""endedAt":null,"durationMs":null"#,
             message: "'endedAt' is missing for a succeeded fetch"),
        Edit(base: .failed, from: #""endedAt":"\#(endText)","durationMs":30"#, to: #""endedAt":null,"durationMs":null"#,
             message: "'endedAt' is missing for a failed fetch"),
        Edit(base: .interrupted, from: #""endedAt":null,"durationMs":null"#, to: #""endedAt":"\#(endText)","durationMs":30"#,
             message: "'endedAt' must be null for an interrupted fetch"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":null"#,
             message: "'durationMs' must be given exactly when 'endedAt' is"),
        Edit(base: .interrupted, from: #""durationMs":null"#, to: #""durationMs":30"#,
             message: "'durationMs' must be given exactly when 'endedAt' is"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":-1"#, message: "'durationMs' is negative"),
        // Whole numbers of Int64, Int64.min included
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":"30""#, message: "'durationMs' must be a number, not a string"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":1.5"#, message: "'durationMs' must be a whole number, not 1.5"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":3e1"#, message: "'durationMs' must be a whole number, not 3e1"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":9223372036854775808"#,
             message: "'durationMs' is out of range: 9223372036854775808"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":-9223372036854775808"#, message: "'durationMs' is negative"),
        Edit(base: .succeeded, from: #""durationMs":30"#, to: #""durationMs":-9223372036854775809"#,
             message: "'durationMs' is out of range: -9223372036854775809"),
        Edit(base: .succeeded, from: #""timeoutMs":5000"#, to: #""timeoutMs":-9223372036854775808"#, message: "'timeoutMs' is negative"),
        // A value exactly for a success, an error exactly for a failure, a reason only for a cancel
        Edit(base: .succeeded, from: #""value":7,"#, to: "", message: "'value' is missing for a succeeded fetch"),
        Edit(base: .failed, from: #""value":null"#, to: #""value":1"#, message: "'value' must be null for a failed fetch"),
        Edit(base: .succeeded, from: #""error":null"#, to: #""error":"x""#, message: "'error' must be null for a succeeded fetch"),
        Edit(base: .cancelled, from: #""error":null"#, to: #""error":"x""#, message: "'error' must be null for a cancelled fetch"),
        Edit(base: .succeeded, from: #""error":null"#, to: #""error":5"#, message: "'error' must be a string, not a number"),
        Edit(base: .failed, from: #""error":"HTTP 503""#, to: #""error":null"#, message: "'error' is missing for a failed fetch"),
        Edit(base: .failed, from: #""cancelReason":null"#, to: #""cancelReason":"user""#, message: "'cancelReason' must be null for a failed fetch"),
        Edit(base: .succeeded, from: #""cancelReason":null"#, to: #""cancelReason":"superseded""#,
             message: "'cancelReason' must be null for a succeeded fetch"),
        Edit(base: .cancelled, from: #""cancelReason":"superseded""#, to: #""cancelReason":"later""#,
             message: "'cancelReason' must be user, superseded or terminated, not 'later'"),
        // A response is a status and a size, within bounds
        Edit(base: .failed, from: #""bytes":4"#, to: #""bytes":null"#, message: "'status' and 'bytes' must be given together"),
        Edit(base: .succeeded, from: #""status":null"#, to: #""status":200"#, message: "'status' and 'bytes' must be given together"),
        Edit(base: .failed, from: #""status":503"#, to: #""status":1000"#, message: "'status' must be 0…999 and 'bytes' not negative"),
        Edit(base: .failed, from: #""status":503"#, to: #""status":-1"#, message: "'status' must be 0…999 and 'bytes' not negative"),
        Edit(base: .failed, from: #""bytes":4"#, to: #""bytes":-1"#, message: "'status' must be 0…999 and 'bytes' not negative"),
        Edit(base: .failed, from: #""status":503"#, to: #""status":"503""#, message: "'status' must be a number, not a string"),
        // A script: a timeout not below zero; an end with its moment and what it needs
        Edit(base: .succeeded, from: #""timeoutMs":5000"#, to: #""timeoutMs":-5"#, message: "'timeoutMs' is negative"),
        Edit(base: .succeeded, from: #""endedByAt":"\#(endText)""#, to: #""endedByAt":null"#,
             message: "'endedBy' is 'answer' but 'endedByAt' is null"),
        Edit(base: .succeeded, from: #""endedBy":"answer""#, to: #""endedBy":"later""#,
             message: "'endedBy' must be answer, failure, cancel, fetch, timeout or null, not 'later'"),
        Edit(base: .succeeded, from: #","answerValue":7"#, to: "", message: "'endedBy' is 'answer' but 'answerValue' is missing"),
        Edit(base: .failed, from: #""answerError":"HTTP 503""#, to: #""answerError":null"#,
             message: "'endedBy' is 'failure' but 'answerError' is null"),
        // Fields that say otherwise than each other, as recording never writes them
        Edit(base: .failed, from: #""endedBy":"failure""#, to: #""endedBy":"answer""#,
             message: "'outcome' is failed but 'endedBy' is 'answer'"),
        Edit(base: .succeeded, from: #""endedBy":"answer""#, to: #""endedBy":"failure""#,
             message: "'outcome' is succeeded but 'endedBy' is 'failure'"),
        Edit(base: .succeeded, from: #""endedBy":"answer","endedByAt":"\#(endText)""#, to: #""endedBy":null,"endedByAt":null"#,
             message: "'outcome' is succeeded but 'endedBy' is null"),
        Edit(base: .cancelled, from: #""endedBy":"fetch""#, to: #""endedBy":"cancel""#,
             message: "'outcome' is cancelled (superseded) but 'endedBy' is 'cancel'"),
        Edit(base: .cancelled, from: #""cancelReason":"superseded""#, to: #""cancelReason":"user""#,
             message: "'outcome' is cancelled (user) but 'endedBy' is 'fetch'"),
        Edit(base: .cancelled, from: #""endedBy":"fetch""#, to: #""endedBy":"timeout""#,
             message: "'outcome' is cancelled (superseded) but 'endedBy' is 'timeout'"),
        Edit(base: .interrupted, from: #""endedBy":null,"endedByAt":null"#, to: #""endedBy":"cancel","endedByAt":"\#(endText)""#,
             message: "'outcome' is interrupted but 'endedBy' is 'cancel'"),
        Edit(base: .succeeded, from: #""answerError":null"#, to: #""answerError":"HTTP 503""#,
             message: "'endedBy' is 'answer' but 'answerError' is given"),
        Edit(base: .failed, from: #""answerValue":null"#, to: #""answerValue":7"#,
             message: "'endedBy' is 'failure' but 'answerValue' is given"),
        Edit(base: .cancelled, from: #""answerValue":null"#, to: #""answerValue":7"#,
             message: "'endedBy' is 'fetch' but 'answerValue' is given"),
        Edit(base: .succeeded, from: #""answerValue":7"#, to: #""answerValue":8"#,
             message: "'value' and 'answerValue' differ: the answer is what succeeded"),
        Edit(base: .failed, from: #""answerError":"HTTP 503""#, to: #""answerError":"HTTP 500""#,
             message: "'error' and 'answerError' differ: the failure is what was recorded"),
        Edit(base: .interrupted, from: #""endedByAt":null"#, to: #""endedByAt":"\#(endText)""#,
             message: "'endedByAt' is given but 'endedBy' is null"),
        Edit(base: .succeeded, from: #""tappedAt":"\#(startText)""#, to: #""tappedAt":null"#,
             message: "'timeoutMs' is given but 'tappedAt' is null: without a tap nothing was timed"),
        Edit(base: .cancelled, from: #""status":null,"bytes":null"#, to: #""status":200,"bytes":1"#,
             message: "'outcome' is cancelled but 'status' is given: only an answer has a status"),
        Edit(base: .interrupted, from: #""status":null,"bytes":null"#, to: #""status":200,"bytes":1"#,
             message: "'outcome' is interrupted but 'status' is given: only an answer has a status"),
        Edit(base: .succeeded, from: #""endedBy":"answer""#, to: #""endedBy":1"#, message: "'endedBy' must be a string, not a number"),
    ])
    func aRecordBreakingOneRuleIsRefusedWithItsMessage(_ edit: Edit) throws {
        // Given an export record with one edit that breaks one rule
        let line = try edit.line()
        #expect(Self.error(reading: edit.base.line) == nil, "the record before the edit is valid")

        // When it is read
        let error = Self.error(reading: line)

        // Then it is refused as record 1, where it starts, with that rule's message
        #expect(error == ImportError(line: 1, column: 1, record: 1, message: edit.message), "\(line)")
    }

    @Test(arguments: [
        ("42", "expected an object, found a number"),
        (#""text""#, "expected an object, found a string"),
        ("null", "expected an object, found null"),
        ("true", "expected an object, found a boolean"),
    ])
    func aLineThatIsNotAnObjectIsRefused(_ line: String, _ message: String) {
        // Given a line holding a JSON value that is not an object
        // When it is read
        // Then it is refused as a record, saying what it is
        #expect(Self.error(reading: line) == ImportError(line: 1, column: 1, record: 1, message: message))
    }

    @Test func anArrayElementThatIsNotAnObjectIsRefusedWhereItStarts() {
        // Given an export array whose first element is an array
        // When it is read
        // Then it is refused at that element's first byte
        #expect(Self.error(reading: "[ [1]]") == ImportError(line: 1, column: 3, record: 1, message: "expected an object, found an array"))
    }
}

extension RecordRefusalTests {
    /// The place (1-based column) of `text`, which must be in `line` once.
    static func column(of text: String, in line: String) throws -> Int {
        let range = try #require(line.range(of: text))
        #expect(line.range(of: text, range: range.upperBound..<line.endIndex) == nil)
        return line.utf8.distance(from: line.startIndex, to: range.lowerBound) + 1
    }

    @Test func aKeyGivenTwiceIsRefusedWhereverItIs() throws {
        // Given records with a known key given twice, an unknown one given
        // twice, and a value holding an object with a key given twice
        let base = Base.succeeded.line
        let knownTwice = base.dropLast() + #","source":"other"}"#
        let unknownTwice = base.dropLast() + #","note":1,"note":2}"#
        let nestedTwice = base.replacingOccurrences(of: #""value":7"#, with: #""value":{"a":1,"a":2}"#)
            .replacingOccurrences(of: #""answerValue":7"#, with: #""answerValue":{"a":1}"#)

        // When each is read
        // Then it is refused at the second one, naming the key
        #expect(Self.error(reading: String(knownTwice)) == ImportError(
            line: 1, column: try Self.column(of: #""source":"other""#, in: String(knownTwice)), record: 1,
            message: "the key 'source' appears twice"
        ))
        #expect(Self.error(reading: String(unknownTwice)) == ImportError(
            line: 1, column: try Self.column(of: #""note":2"#, in: String(unknownTwice)), record: 1,
            message: "the key 'note' appears twice"
        ))
        #expect(Self.error(reading: nestedTwice) == ImportError(
            line: 1, column: try Self.column(of: #""a":2"#, in: nestedTwice), record: 1,
            message: "the key 'a' appears twice"
        ))
    }

    @Test func aNumberWithALeadingZeroIsRefusedWhereItsDigitsStart() throws {
        // Given a record whose duration is written 030
        let line = Base.succeeded.line.replacingOccurrences(of: #""durationMs":30"#, with: #""durationMs":030"#)

        // When it is read
        // Then it is not JSON: refused at the zero
        #expect(Self.error(reading: line) == ImportError(
            line: 1, column: try Self.column(of: #""durationMs":030"#, in: line) + #""durationMs":"#.utf8.count, record: 1,
            message: "numbers may not have leading zeros"
        ))
    }
}

/// The edges of the same rules, on the side that is accepted.
extension RecordRefusalTests {
    @Test func aTimeWithAnOffsetIsTheSameMomentInUTC() throws {
        // Given a record whose start is written one hour ahead, +01:00
        let fetch = Base.succeeded.fetch
        let line = Base.succeeded.line.replacingOccurrences(
            of: #""startedAt":"\#(Self.startText)""#, with: #""startedAt":"2025-11-22T11:00:00.000+01:00""#
        )

        // When it is read
        // Then it is the same fetch
        #expect(try Self.read(line) == [fetch])
    }

    @Test(arguments: [0, 999])
    func aStatusAtEitherBoundIsKept(_ status: Int) throws {
        // Given a failed record whose status is at a bound of 0…999
        let line = Base.failed.line.replacingOccurrences(of: #""status":503"#, with: #""status":\#(status)"#)

        // When it is read
        // Then its status is kept
        #expect(try Self.read(line).map(\.response) == [SourceResponse(status: status, bytes: 4)])
    }

    @Test func anAnsweredScriptKeepsAnAnswerOfNull() throws {
        // Given a record of a fetch that fetched null
        let line = Base.succeeded.line
            .replacingOccurrences(of: #""value":7"#, with: #""value":null"#)
            .replacingOccurrences(of: #""answerValue":7"#, with: #""answerValue":null"#)

        // When it is read
        let fetches = try Self.read(line)

        // Then both the outcome and the script's answer are null, not missing
        #expect(fetches.map(\.outcome) == [.succeeded(FetchValue(validJSON: "null"))])
        #expect(fetches.map { $0.script?.end?.cause } == [.answer(FetchValue(validJSON: "null"))])
    }

    @Test func aDurationOfZeroAndATimeoutOfZeroAreKept() throws {
        // Given a record of a fetch that took 0 ms, with a timeout of 0 ms
        let line = Base.succeeded.line
            .replacingOccurrences(of: #""durationMs":30"#, with: #""durationMs":0"#)
            .replacingOccurrences(of: #""timeoutMs":5000"#, with: #""timeoutMs":0"#)

        // When it is read
        let fetch = try #require(try Self.read(line).first)

        // Then both zeros are kept: only below zero is refused
        #expect(fetch.durationMilliseconds == 0)
        #expect(fetch.script?.timeoutMilliseconds == 0)
    }

    @Test func idsAndEscapesInCapitalsAreRead() throws {
        // Given a record whose ids are in capitals and whose error is written
        // with a \u escape in capitals
        let fetch = Base.failed.fetch
        let line = Base.failed.line
            .replacingOccurrences(of: Self.idText, with: Self.idText.uppercased())
            .replacingOccurrences(of: Self.sessionText, with: Self.sessionText.uppercased())
            .replacingOccurrences(of: #""error":"HTTP 503""#, with: #""error":"HTTP \u0035\u004A""#)
            .replacingOccurrences(of: #""answerError":"HTTP 503""#, with: #""answerError":"HTTP 5\u004A""#)
        var expected = fetch
        expected.outcome = .failed("HTTP 5J")
        expected.script?.end?.cause = .failure("HTTP 5J")

        // When it is read
        // Then the ids are the same ids and the escape the same character
        #expect(try Self.read(line) == [expected])
    }
}
