import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@_spi(Bytes) @testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// The eight-at-a-time tests the import passes strings and counts newlines
/// with, against byte-by-byte answers.
@Suite struct ByteWordTests {
    @Test func wordTestsAgreeWithByteByByteTestsForEveryByteAtEveryPlace() {
        // Given words of plain text and of high bytes, with each byte value put at each place
        for background: UInt8 in [UInt8(ascii: "a"), 0x0A, 0x80, 0xFF, 0x00] {
            for place in 0..<8 {
                for value in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: background, count: 8)
                    bytes[place] = value
                    let word = bytes.word(at: 0)

                    // Then the word reads the bytes in order
                    #expect((0..<8).allSatisfy { UInt8(truncatingIfNeeded: word >> (8 * $0)) == bytes[$0] })
                    // And newlines are counted exactly
                    #expect(ByteWord.count(of: 0x0A, in: word) == bytes.count { $0 == 0x0A })
                    // And the first quote, backslash or control character is found where it is
                    let stops = ByteWord.bytes(equalTo: UInt8(ascii: "\""), in: word)
                        | ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word) | ByteWord.bytes(below: 0x20, in: word)
                    let first = bytes.firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
                    #expect((stops == 0 ? nil : ByteWord.firstMarked(stops)) == first, "\(bytes)")
                }
            }
        }
    }

    @Test func shortBytesArePrefixOfSixteenBytesExactlyWhenEachOfTheirBytesIs() {
        // Given sixteen bytes of text
        let text = Array(#""cancelReason":"user""#.utf8.prefix(16))
        let low = text.word(at: 0), high = text.word(at: 8)
        for count in 0...16 {
            // Then its first `count` bytes are a prefix of it
            #expect(ShortBytes(Array(text.prefix(count))).isPrefix(ofLow: low, high: high), "\(count)")
            // And with any one of them changed, they are not
            for place in 0..<count {
                var changed = Array(text.prefix(count))
                changed[place] ^= 0x20
                #expect(!ShortBytes(changed).isPrefix(ofLow: low, high: high), "\(count), \(place)")
            }
        }
    }

    @Test func aQuotedKeyIsPassedWhenItComesNextAndLeftToTheByteByByteTestNearTheEnd() {
        // Given a member whose key an export writes, with more than sixteen bytes to read, and with fewer
        let quoted = RecordKey.cancelReason.quoted
        var long = JSONParser(bytes: Array(#" "cancelReason":"superseded"}"#.utf8))
        var other = JSONParser(bytes: Array(#""cancelReasons":"superseded"}"#.utf8))
        var short = JSONParser(bytes: Array(#""cancelReason":"#.utf8))

        // Then the key is passed with its colon, another is not (nothing moved but white space),
        // and near the end the answer is left to `key(_:)`
        #expect(long.key(quoted) == true && long.index == 16)
        #expect(other.key(quoted) == false && other.index == 0)
        #expect(short.key(quoted) == nil && short.index == 0)
        #expect(short.key(RecordKey.cancelReason.utf8) && short.index == 15)
    }

    @Test func linesAreCountedWhereverTheNewlinesAre() throws {
        for newlines in [[0], [7], [8], [31], [32], [33], [56], [63], [5, 29, 30, 47], Array(stride(from: 1, to: 90, by: 9))] {
            // Given 100 bytes of text with newlines at these places
            var text = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
            for place in newlines { text[place] = UInt8(ascii: "\n") }
            var input = InputBuffer(source: DataSource(Data(text)), chunkSize: 128)
            _ = try input.refill(keepingFrom: 0)

            // Then every offset's line and column are those counted byte by byte, asked in order and again from the start
            for offset in [99, 40, 100] {
                let before = newlines.filter { $0 < offset }
                let column = offset - (before.last.map { $0 + 1 } ?? 0) + 1
                #expect(input.lineAndColumn(of: offset) == (before.count + 1, column), "\(newlines), \(offset)")
            }
        }
    }
}
