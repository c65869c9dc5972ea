import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// The parser passes string bytes eight at a time where it can: what it
/// must stop at is found at every place, inside a word or in the bytes
/// after the last whole one.
@Suite struct JSONParserStringTests {
    /// A JSON string of `length` plain bytes with `byte` at `place`, then a closing quote and a comma.
    static func text(length: Int, _ byte: UInt8, at place: Int) -> [UInt8] {
        var content = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        content[place] = byte
        return [UInt8(ascii: "\"")] + content + Array("\",".utf8)
    }

    @Test func aRawControlCharacterIsRefusedWhereverItIs() {
        for length in [1, 7, 8, 9, 20] {
            for place in 0..<length {
                for control in UInt8(0)..<0x20 {
                    // Given a string holding a raw control character
                    var parser = JSONParser(bytes: Self.text(length: length, control, at: place))

                    // When it is parsed
                    // Then it is refused at that byte
                    #expect(throws: JSONSyntaxError.self, "0x\(String(control, radix: 16)) at \(place) of \(length)") {
                        _ = try parser.value()
                    }
                    #expect(parser.index == 1 + place)
                }
            }
        }
    }

    @Test func invalidUTF8IsRefusedWhereverItIs() {
        for length in [1, 7, 8, 9, 20] {
            for place in 0..<length {
                for invalid: UInt8 in [0x80, 0xC0, 0xFF] {
                    var parser = JSONParser(bytes: Self.text(length: length, invalid, at: place))
                    #expect(throws: JSONSyntaxError.self, "0x\(String(invalid, radix: 16)) at \(place) of \(length)") {
                        _ = try parser.value()
                    }
                }
            }
        }
    }

    @Test func aStringEndsAtItsQuoteWhereverItIs() throws {
        for length in [1, 7, 8, 9, 20] {
            for place in 0..<length {
                // Given a string closed early, or holding an escaped quote, at each place
                var closed = JSONParser(bytes: Self.text(length: length, UInt8(ascii: "\""), at: place))
                let token = try closed.value()
                #expect(token.end - token.start == place)

                var bytes = Self.text(length: length + 1, UInt8(ascii: "\\"), at: place)
                bytes[2 + place] = UInt8(ascii: "\"")
                var escaped = JSONParser(bytes: bytes)
                let whole = try escaped.value()
                #expect(try escaped.string(whole) == String(repeating: "a", count: place) + "\"" + String(repeating: "a", count: length - 1 - place))
            }
        }
    }
}
