import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// The import's parser keeps to RFC 8259 where other parsers are lenient:
/// numbers, nesting and escapes, each refusal with its own message.
@Suite struct JSONParserGrammarTests {
    /// Parses `text` as one value; returns the syntax error, or nil when the
    /// value was read to the end of the text.
    static func error(parsing text: String) -> JSONSyntaxError? {
        var parser = JSONParser(bytes: Array(text.utf8))
        do {
            _ = try parser.value()
            #expect(parser.isAtEnd, "\(text) was read only up to \(parser.index)")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["0", "-0", "0.5", "10", "-10", "1e400", "-1.5E-3", "2e+10", "0e0", "100"])
    func aNumberAsRFC8259WritesItIsReadToItsEnd(_ text: String) {
        #expect(Self.error(parsing: text) == nil)
    }

    @Test(arguments: [
        ("007", 0, "numbers may not have leading zeros"),
        ("-01", 1, "numbers may not have leading zeros"),
        ("01.5", 0, "numbers may not have leading zeros"),
        ("00", 0, "numbers may not have leading zeros"),
        ("1.", 2, "expected digits after '.'"),
        ("1.e5", 2, "expected digits after '.'"),
        ("1e", 2, "expected digits in the exponent"),
        ("1e+", 3, "expected digits in the exponent"),
        ("-", 1, "expected digits"),
        ("-a", 1, "expected digits"),
        ("+1", 0, "unexpected character '+'"),
        (".5", 0, "unexpected character '.'"),
    ])
    func aNumberOutsideTheGrammarIsRefusedWhereItGoesWrong(_ text: String, _ offset: Int, _ message: String) {
        let error = Self.error(parsing: text)
        #expect(error?.message == message)
        #expect(error?.offset == offset)
    }

    @Test func nestingStopsAtSixtyFourLevels() {
        // Given arrays nested 64 deep, and 65 deep
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)

        // When each is parsed
        // Then the first is read whole; the second is refused at its 65th level
        #expect(Self.error(parsing: allowed) == nil)
        let error = Self.error(parsing: tooDeep)
        #expect(error?.message == "nesting is deeper than 64 levels")
        #expect(error?.offset == 64)
    }

    @Test func objectsCountTowardsTheSameLimit() {
        let allowed = String(repeating: #"{"a":"#, count: 63) + "[]" + String(repeating: "}", count: 63)
        let tooDeep = String(repeating: #"{"a":"#, count: 64) + "[]" + String(repeating: "}", count: 64)

        #expect(Self.error(parsing: allowed) == nil)
        #expect(Self.error(parsing: tooDeep)?.message == "nesting is deeper than 64 levels")
    }

    @Test func everyEscapeDecodesToItsCharacter() throws {
        // Given a string holding every short escape and \u escapes in either case
        var parser = JSONParser(bytes: Array(#""\"\\\/\b\f\n\r\t \u00C9\u00e9 \ud83d\ude00""#.utf8))

        // When it is parsed and decoded
        let token = try parser.value()

        // Then each escape is its character
        #expect(try parser.string(token) == "\"\\/\u{08}\u{0C}\n\r\t Éé 😀")
    }

    @Test(arguments: [
        (#""\udc00""#, "a low surrogate without a high one"),
        (#""\ud83dx""#, "a high surrogate must be followed by a low one"),
        (#""\ud83d\u0041""#, "a high surrogate must be followed by a low one"),
        (#""\u12g4""#, #"expected four hex digits after \u"#),
        (#""\q""#, #"unknown escape \'q'"#),
    ])
    func aBrokenEscapeIsRefusedWithWhatIsWrong(_ text: String, _ message: String) {
        #expect(Self.error(parsing: text)?.message == message)
    }
}
