import FoundationEssentials
import Testing
@testable import FetchHistoryModel

/// Ids are parsed and written a word at a time (`HexWord`): checked here
/// against Foundation's form and byte by byte, at every place.
@Suite struct UUIDTextTests {
    @Test func writesFoundationsFormInLowerCaseAndReadsItBack() {
        // Given ids with every nibble value at every place, and random ones
        var ids = (0..<16).map { nibble in
            UUID(uuid: (0..<16).reduce(into: [UInt8]()) { bytes, _ in bytes.append(UInt8(nibble) << 4 | UInt8(15 - nibble)) }.tuple)
        }
        for _ in 0..<500 { ids.append(UUID()) }

        for id in ids {
            // Then each is written as Foundation writes it, lower-cased
            #expect(id.lowercased == id.uuidString.lowercased())
            // And read back from either case
            #expect(UUID(utf8: Array(id.lowercased.utf8).span) == id)
            #expect(UUID(utf8: Array(id.uuidString.utf8).span) == id)
        }
    }

    @Test func refusesEveryByteThatIsNotAHexDigitOrTheDashAtItsPlace() throws {
        // Given an id's text with one byte replaced, every value at every place
        let id = try #require(UUID(uuidString: "0123ABCD-4567-89EF-a1b2-c3d4e5f60789"))
        let text = Array(id.uuidString.utf8)
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        for place in text.indices {
            for value in UInt8.min...UInt8.max {
                var changed = text
                changed[place] = value
                let isDashPlace = [8, 13, 18, 23].contains(place)
                let parsed = UUID(utf8: changed.span)

                // Then it is read exactly when the byte fits its place, and as the id it spells
                let fits = isDashPlace ? value == UInt8(ascii: "-") : hexDigits.contains(value)
                #expect((parsed != nil) == fits, "\(value) at \(place)")
                if fits { #expect(parsed == UUID(uuidString: String(decoding: changed, as: UTF8.self))) }
            }
        }
        // And a text of any other length is refused
        #expect(UUID(utf8: Array(text.dropLast()).span) == nil)
        #expect(UUID(utf8: (text + [UInt8(ascii: "0")]).span) == nil)
    }
}

extension [UInt8] {
    /// Sixteen bytes as a `uuid_t`.
    fileprivate var tuple: uuid_t {
        (self[0], self[1], self[2], self[3], self[4], self[5], self[6], self[7],
         self[8], self[9], self[10], self[11], self[12], self[13], self[14], self[15])
    }
}
