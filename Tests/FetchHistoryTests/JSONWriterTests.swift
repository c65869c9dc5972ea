import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

@Suite("JSONWriter: the one JSON writer, for export, show, stats and replay")
struct JSONWriterTests {
    /// `value` written as a JSON string.
    static func written(_ value: String) -> String {
        var json = JSONWriter()
        json.string(value)
        return json.text
    }

    @Test func escapesQuoteBackslashAndControlCharactersAndNothingElse() {
        // Given strings with every kind of character a string escape is about
        // When each is written
        // Then quote and backslash get a backslash, newline, return and tab their short escapes,
        // other control characters \u00XX in lower-case hex
        #expect(Self.written(#"say "hi""#) == #""say \"hi\"""#)
        #expect(Self.written(#"C:\temp"#) == #""C:\\temp""#)
        #expect(Self.written("a\nb\rc\td") == #""a\nb\rc\td""#)
        #expect(Self.written("\u{00}\u{01}\u{08}\u{0C}\u{1B}\u{1F}") == #""\u0000\u0001\u0008\u000c\u001b\u001f""#)
        // And `/`, DEL, and non-ASCII text (a line separator, an emoji, combining marks) are written as they are
        #expect(Self.written("https://h/n?a=1") == #""https://h/n?a=1""#)
        #expect(Self.written("\"/\n/ 12345678/") == #""\"/\n/ 12345678/""#)
        #expect(Self.written("\u{7F}") == "\"\u{7F}\"")
        #expect(Self.written("ünïcode ✓ 😀 \u{2028} e\u{301}") == "\"ünïcode ✓ 😀 \u{2028} e\u{301}\"")
        #expect(Self.written("") == #""""#)
    }

    @Test func everyStringReadsBackAsItselfThroughFoundationAndOurParser() throws {
        // Given every ASCII character alone, and random strings of ASCII, controls and non-ASCII scalars
        var strings = (0..<0x80).map { String(Unicode.Scalar(UInt8($0))) }
        var random = SplitMix64(seed: 13)
        let alphabet: [Unicode.Scalar] = (0..<0x80).map { Unicode.Scalar(UInt8($0)) } + ["é", "✓", "😀", "\u{2028}", "\u{FEFF}", "\u{10FFFF}"]
        for _ in 0..<500 {
            let length = Int.random(in: 0...40, using: &random)
            strings.append(String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &random)! })))
        }
        for string in strings {
            // When written as the only element of an array
            var json = JSONWriter()
            json.beginArray()
            json.string(string)
            json.endArray()

            // Then Foundation reads the same string back (but for U+FEFF: Linux's JSONSerialization
            // drops one that follows an escape, as if it were a byte-order mark)
            if !string.unicodeScalars.contains("\u{FEFF}") {
                let foundation = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String]
                #expect(foundation == [string], "\(json.text)")
            }
            // And so does the import's parser
            var parser = JSONParser(bytes: Array(json.bytes.dropFirst().dropLast()))
            let token = try parser.value()
            #expect(try parser.string(token) == string, "\(json.text)")
            #expect(parser.isAtEnd)
        }
    }

    @Test func commasSeparateMembersAndElementsAtEveryDepth() {
        // Given a document with nested, empty and null parts
        var json = JSONWriter()
        json.beginObject()
        json.key("a")
        json.integer(1)
        json.key("b")
        json.beginArray()
        json.integer(Int64.min)
        json.integer(Int64.max)
        json.integer(0 as Int64)
        json.integer(-7 as Int)
        json.beginObject()
        json.endObject()
        json.beginArray()
        json.endArray()
        json.null()
        json.bool(true)
        json.bool(false)
        json.string(nil)
        json.integer(nil as Int64?)
        json.endArray()
        json.key("c")
        json.beginObject()
        json.key("d")
        json.fragment(#"{"id":1,"name":"Ada"}"#)
        json.key("e")
        json.fragment("0.800000")
        json.endObject()
        json.endObject()

        // Then it is compact JSON with a comma between every two neighbours and none elsewhere
        #expect(json.text == #"{"a":1,"b":[-9223372036854775808,9223372036854775807,0,-7,{},[],null,true,false,null,null],"c":{"d":{"id":1,"name":"Ada"},"e":0.800000}}"#)
    }

    @Test func keysAreEscapedLikeStrings() {
        var json = JSONWriter()
        json.beginObject()
        json.key("a\"b\n")
        json.integer(1)
        json.endObject()
        #expect(json.text == #"{"a\"b\n":1}"#)
    }

    @Test func jsonLinesAndAnArrayOfLinesLayOutAsTheExportDoes() {
        // Given two objects written as JSON lines
        var lines = JSONWriter()
        for number in 1...2 {
            lines.beginObject()
            lines.key("n")
            lines.integer(number)
            lines.endObject()
            lines.newline()
        }
        // Then each is one line, with no comma between
        #expect(lines.text == "{\"n\":1}\n{\"n\":2}\n")

        // Given arrays with each element on its own line: empty, one element, two
        func array(_ count: Int) -> String {
            var json = JSONWriter()
            json.beginArray(elementsOnOwnLines: true)
            for number in 0..<count { json.integer(number) }
            json.endArray()
            return json.text
        }
        // Then they are laid out as `export --format json` writes its records
        #expect(array(0) == "[]")
        #expect(array(1) == "[\n0\n]")
        #expect(array(2) == "[\n0,\n1\n]")
    }

    @Test func aDocumentWrittenInPiecesIntoABufferIsTheSameDocument() {
        // Given a writer that writes each element into a buffer emptied in between, as the CLI's output does
        var json = JSONWriter()
        var buffer: [UInt8] = Array("prefix ".utf8)
        var flushed: [UInt8] = []
        json.write(into: &buffer) { $0.beginArray(elementsOnOwnLines: true) }
        for number in 1...3 {
            json.write(into: &buffer) { $0.integer(number) }
            flushed += buffer
            buffer.removeAll(keepingCapacity: true)
        }
        json.write(into: &buffer) { $0.endArray() }
        flushed += buffer

        // Then the pieces join into the one document, after what the buffer held
        #expect(String(decoding: flushed, as: UTF8.self) == "prefix [\n1,\n2,\n3\n]")
    }

    @Test func uuidsAndTimesAreWrittenInTheirTextForms() {
        let id = UUID(uuidString: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9")!
        var json = JSONWriter()
        json.beginArray()
        json.uuid(id)
        json.timestamp(Timestamp(millisecondsSince1970: 1_795_341_600_250))
        json.timestamp(Timestamp(millisecondsSince1970: -1))
        json.timestamp(nil)
        json.endArray()
        #expect(json.text == #"["0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9","2026-11-22T10:00:00.250Z","1969-12-31T23:59:59.999Z",null]"#)
        #expect(id.lowercased == "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
    }

    @Test func theExportRecordHasEveryFieldInItsPlace() {
        // Given a failed HTTP fetch with a script, and an interrupted one without an end
        let failed = Fetch(
            id: UUID(uuidString: "a13bc712-cde0-4dd1-b746-9a3aacc05ec9")!,
            sessionID: UUID(uuidString: "6ea1f6cc-9c8a-4f31-9e7a-027c8c3a4770")!,
            source: "https://numbers.example/n?page=2", startedAt: Timestamp(millisecondsSince1970: 1_795_341_600_000),
            endedAt: Timestamp(millisecondsSince1970: 1_795_341_601_002), durationMilliseconds: 1002,
            outcome: .failed("HTTP 503 \"busy\""), response: SourceResponse(status: 503, bytes: 17),
            script: FetchScript(
                tappedAt: Timestamp(millisecondsSince1970: 1_795_341_600_000), timeoutMilliseconds: 5000,
                end: FetchScript.End(cause: .failure("HTTP 503 \"busy\""), at: Timestamp(millisecondsSince1970: 1_795_341_601_002))
            ),
            host: "ci-3"
        )
        let succeeded = Fetch(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
            sessionID: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
            source: "random", startedAt: Timestamp(millisecondsSince1970: 0), endedAt: Timestamp(millisecondsSince1970: 7),
            durationMilliseconds: 7, outcome: .succeeded(-42),
            script: FetchScript(
                tappedAt: Timestamp(millisecondsSince1970: 0),
                end: FetchScript.End(cause: .answer(-42), at: Timestamp(millisecondsSince1970: 7))
            )
        )
        let cancelled = Fetch(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!,
            sessionID: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
            source: "random", startedAt: Timestamp(millisecondsSince1970: 10), endedAt: Timestamp(millisecondsSince1970: 12),
            durationMilliseconds: 2, outcome: .cancelled(.superseded), script: nil
        )

        // When written as export records
        // Then every key is there, in order, each with its own value
        #expect(FetchJSON.string(failed) == #"{"id":"a13bc712-cde0-4dd1-b746-9a3aacc05ec9","session":"6ea1f6cc-9c8a-4f31-9e7a-027c8c3a4770","source":"https://numbers.example/n?page=2","outcome":"failed","cancelReason":null,"value":null,"error":"HTTP 503 \"busy\"","startedAt":"2026-11-22T10:00:00.000Z","endedAt":"2026-11-22T10:00:01.002Z","durationMs":1002,"status":503,"bytes":17,"tappedAt":"2026-11-22T10:00:00.000Z","timeoutMs":5000,"endedBy":"failure","endedByAt":"2026-11-22T10:00:01.002Z","answerValue":null,"answerError":"HTTP 503 \"busy\"","host":"ci-3","body":null,"contentType":null,"truncated":null}"#)
        #expect(FetchJSON.string(succeeded) == #"{"id":"00000000-0000-0000-0000-000000000001","session":"00000000-0000-0000-0000-000000000002","source":"random","outcome":"succeeded","cancelReason":null,"value":-42,"error":null,"startedAt":"1970-01-01T00:00:00.000Z","endedAt":"1970-01-01T00:00:00.007Z","durationMs":7,"status":null,"bytes":null,"tappedAt":"1970-01-01T00:00:00.000Z","timeoutMs":null,"endedBy":"answer","endedByAt":"1970-01-01T00:00:00.007Z","answerValue":-42,"answerError":null,"host":"","body":null,"contentType":null,"truncated":null}"#)
        #expect(FetchJSON.string(cancelled) == #"{"id":"00000000-0000-0000-0000-000000000003","session":"00000000-0000-0000-0000-000000000002","source":"random","outcome":"cancelled","cancelReason":"superseded","value":null,"error":null,"startedAt":"1970-01-01T00:00:00.010Z","endedAt":"1970-01-01T00:00:00.012Z","durationMs":2,"status":null,"bytes":null,"tappedAt":null,"timeoutMs":null,"endedBy":null,"endedByAt":null,"answerValue":null,"answerError":null,"host":"","body":null,"contentType":null,"truncated":null}"#)

        // And appending to a buffer writes the same bytes after what it held
        var buffer = Array("x".utf8)
        FetchJSON.append(failed, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x" + FetchJSON.string(failed))
    }
}

extension JSONWriterTests {
    @Test func aFragmentThatIsNotOneJSONValueStopsADebugBuild() async {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            var json = JSONWriter()
            json.fragment(#"{"id":1"#)
        }
        #endif
    }
}
