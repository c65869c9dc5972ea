import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// Any fetched value is kept exactly: integers as SQLite integers (so SQL
/// that reads numbers works), everything else as its JSON text.
@Suite struct LosslessValueTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    /// Records one succeeded fetch ending in `value` (and answered by it)
    /// and reads it back, with the types SQLite stored.
    static func roundTrip(_ value: FetchValue) async throws -> (fetch: Fetch, valueType: String, answerType: String) {
        let store = try HistoryStore.inMemory()
        return try await store.write { db in
            let session = try db.beginSession(source: "test", at: Timestamp(millisecondsSince1970: 1_000))
            let id = UUID()
            try db.recordStart(of: id, in: session, at: Timestamp(millisecondsSince1970: 1_010))
            try db.recordEnd(
                of: id, at: Timestamp(millisecondsSince1970: 1_020), duration: .milliseconds(10),
                outcome: .succeeded(value), cause: .answer(value)
            )
            let types = try db.rows("SELECT typeof(value), typeof(answer_value) FROM fetch") { row in (row.text(0), row.text(1)) }
            return (try #require(try db.fetches().first), types[0].0, types[0].1)
        }
    }

    @Test(arguments: [
        (try! FetchValue(encoding: User(id: 1, name: "Ada")), #"{"id":1,"name":"Ada"}"#, "text"),
        (try! FetchValue(encoding: "Grüße, \"Ada\" 😀"), #""Grüße, \"Ada\" 😀""#, "text"),
        (try! FetchValue(encoding: [1, 2, 3]), "[1,2,3]", "text"),
        (try! FetchValue(encoding: 1.5), "1.5", "text"),
        (try! FetchValue(encoding: true), "true", "text"),
        (FetchValue(42), "42", "integer"),
        (FetchValue(-7), "-7", "integer"),
        (FetchValue(Int.min), String(Int.min), "integer"),
    ])
    func aValueIsReadBackAsTheJSONItWasWithIntegersStoredAsIntegers(value: FetchValue, json: String, storedAs: String) async throws {
        // Given a fetch recorded with the value as its result and its answer
        // When it is read back
        let (fetch, valueType, answerType) = try await Self.roundTrip(value)

        // Then both are the same JSON text, stored as integers only when integers
        #expect(value.json == json)
        #expect(fetch.value == value)
        #expect(fetch.script?.end?.cause == .answer(value))
        #expect(valueType == storedAs)
        #expect(answerType == storedAs)
    }

    @Test func anImportStoresIntegersAsIntegersAndEveryOtherValueAsJSONText() async throws {
        // Given fetches that succeeded with an integer, an object and a string, ended by those answers
        let values: [FetchValue] = [42, try FetchValue(encoding: User(id: 1, name: "Ada")), try FetchValue(encoding: "42")]
        let fetches = values.enumerated().map { number, value in
            let start = Timestamp(millisecondsSince1970: 1_000 + Int64(number) * 100)
            let end = Timestamp(millisecondsSince1970: start.millisecondsSince1970 + 10)
            return Fetch(
                id: UUID(), sessionID: UUID(), source: "test", startedAt: start, endedAt: end, durationMilliseconds: 10,
                outcome: .succeeded(value), response: nil,
                script: FetchScript(tappedAt: start, timeoutMilliseconds: nil, end: FetchScript.End(cause: .answer(value), at: end))
            )
        }
        let store = try HistoryStore.inMemory()

        // When they are imported
        let types = try await store.write { db in
            _ = try db.importFetches { insert in for fetch in fetches { try insert(fetch) } }
            return try db.rows("SELECT typeof(value), typeof(answer_value) FROM fetch ORDER BY seq") { [$0.text(0), $0.text(1)] }
        }

        // Then the integer is an SQLite integer, the object and the string (even one that reads "42") JSON text
        #expect(types == [["integer", "integer"], ["text", "text"], ["text", "text"]])
        #expect(try await store.read { db in try db.fetches() }.compactMap(\.value).sorted { $0.json < $1.json }
            == values.sorted { $0.json < $1.json })
    }

    @Test func aUserComesBackAsTheUser() async throws {
        let user = User(id: 7, name: "Grace")
        let (fetch, _, _) = try await Self.roundTrip(try FetchValue(encoding: user))
        #expect(try fetch.value?.decoded(as: User.self) == user)
    }

    @Test(arguments: ["-0", "0.0", "1e3", "007", "99999999999999999999", "+5", " 5"])
    func onlyJSONWrittenAsIntWritesItIsAnInteger(json: String) {
        // Stored as an integer, such text would be read back as other text
        #expect(FetchValue(validJSON: json).integer == nil)
    }

    @Test func textThatIsAnIntegerIsOne() {
        #expect(FetchValue(validJSON: "-12").integer == -12)
        #expect(FetchValue(validJSON: String(Int.max)).integer == Int.max)
        #expect(FetchValue(validJSON: String(Int.min)).integer == Int.min)
        #expect(FetchValue(validJSON: "0").integer == 0)
        #expect(FetchValue(validJSON: "9223372036854775808").integer == nil)
        #expect(FetchValue(validJSON: "-9223372036854775809").integer == nil)
    }

    @Test func anIntegerIsExactlyTheTextIntWrites() {
        // Given texts made of a sign, digits and other bytes, random and at Int's edges
        var generator = SplitMix64(seed: 21)
        let alphabet = Array("-+0123456789. e".utf8)
        var texts = ["", "-", "--1", "1-", String(Int.max), String(Int.min), "18446744073709551616"]
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...21, using: &generator)
            texts.append(String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self))
        }
        for text in texts {
            // Then one is an integer exactly when Int reads it and writes it back the same
            let expected = Int(text).flatMap { String($0) == text ? $0 : nil }
            #expect(FetchValue(validJSON: text).integer == expected, "\(text)")
        }
    }

    @Test(arguments: [
        ("a real", "1.5"), ("a blob", "x'00'"), ("text that is not JSON", "'Ada'"), ("text that is half a JSON object", "'{\"id\":1'"),
    ])
    func theTableRefusesAValueThatIsNeitherAnIntegerNorJSONText(kind: String, literal: String) async throws {
        // Given a history
        let store = try HistoryStore.inMemory()
        try await store.write { db in
            try db.execute("INSERT INTO session (id, started_at, source, host, process_id) VALUES ('s', 0, 'test', 'h', 1)")
            for column in ["value", "answer_value"] {
                // When another program writes such a value
                let outcome = column == "value" ? "'succeeded'" : "'failed'"
                let sql = "INSERT INTO fetch (id, session_id, source, started_at, outcome, \(column)) VALUES ('f', 's', 'test', 0, \(outcome), \(literal))"

                // Then the CHECK refuses it
                #expect(throws: SQLiteError.self, "\(kind) in \(column)") { try db.execute(sql) }
            }
            // while an integer and JSON text are taken
            try db.execute("INSERT INTO fetch (id, session_id, source, started_at, outcome, value, answer_value) VALUES ('g', 's', 'test', 0, 'succeeded', 5, '\"five\"')")
            #expect(try db.scalarInt64("SELECT count(*) FROM fetch") == 1)
        }
    }
}

extension LosslessValueTests {
    struct Reversed: Codable, Sendable {
        var z = 1
        var a = "a/b"
    }

    @Test func aValueHasOneTextWhateverOrderItsKeysAreDeclaredIn() throws {
        // Given a value whose keys are declared z before a, with a slash
        // When it is turned into a fetched value
        let value = try FetchValue(encoding: Reversed())

        // Then its keys are sorted and the slash is not escaped
        #expect(value.json == #"{"a":"a/b","z":1}"#)
    }
}

extension LosslessValueTests {
    @Test func aValueJSONCannotHoldIsRefusedNamingItsType() {
        // Given a Double that is not a number, which JSON has no way to write
        // When it is turned into a fetched value
        // Then it is refused, naming the type it came from
        #expect {
            try FetchValue(encoding: Double.nan)
        } throws: { error in
            guard let error = error as? FetchValueError else { return false }
            return error.valueType == "Double"
                && error.description.hasPrefix("the value is not a Double this fetch-history can read or write as JSON: ")
        }
    }
}

extension LosslessValueTests {
    struct Reading: Codable, Equatable, Sendable {
        var at: Int
        var raw: FetchValue
    }

    @MainActor
    @Test func aFetchValueAnswerIsRecordedAndDecodedAsItsTextExactly() async throws {
        // Given a source answering FetchValues whose text no Swift type keeps: keys out of
        // order, a number beyond Double, a trailing zero
        let answers = [#"{"z":1,"a":2}"#, "1e400", "2.50"].map { FetchValue(validJSON: $0) }
        for answer in answers {
            // When a view state of FetchValues records it, and it is decoded again as a FetchValue
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(recorder: recorder, clock: ManualClock(), fetchAnswer: { SourceAnswer(value: answer) })
            try await viewState.fetch()

            // Then the recorded value is that text, byte for byte, and so is the value decoded
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.succeeded(answer), at: .zero)])
            #expect(try answer.decoded(as: FetchValue.self).json == answer.json)
            #expect(viewState.value == answer)
        }
    }

    @Test func throughAnotherCoderAFetchValueGoesAsTheJSONValueItHolds() throws {
        // Given a type holding a FetchValue among its fields
        let reading = Reading(at: 3, raw: FetchValue(validJSON: #"{"b":[1,"two",null],"a":2.5}"#))

        // When it is encoded and decoded by Foundation's coders
        let data = try JSONEncoder().encode(reading)
        let decoded = try JSONDecoder().decode(Reading.self, from: data)

        // Then the value comes back as the same JSON value (its keys sorted)
        #expect(decoded.at == 3)
        #expect(decoded.raw.json == #"{"a":2.5,"b":[1,"two",null]}"#)
        #expect(decoded.raw.isSameValue(as: reading.raw))
    }
}

extension LosslessValueTests {
    @Test(arguments: [
        ("0", 0), ("42", 42), ("-7", -7), (String(Int.max), Int.max), (String(Int.min), Int.min),
        ("-0", nil), ("007", nil), ("1e2", nil), ("1.0", nil), (#""42""#, nil), ("-", nil),
        ("9223372036854775808", nil), ("-9223372036854775809", nil), ("18446744073709551616", nil),
    ] as [(String, Int?)])
    func aValueIsAnIntegerOnlyWhenItsTextIsThatIntegerWrittenPlainly(json: String, integer: Int?) {
        // Given a value's JSON text
        // Then it is read as an integer exactly when writing the integer gives the same text back
        #expect(FetchValue(validJSON: json).integer == integer)
    }
}
