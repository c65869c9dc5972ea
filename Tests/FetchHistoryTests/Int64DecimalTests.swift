import Testing
@testable import FetchHistoryModel

/// The one decimal reader import (JSON numbers) and pull (PostgreSQL's
/// record text) share: an optional leading minus, then digits, within
/// Int64's range, Int64.min included.
@Suite struct Int64DecimalTests {
    static func read(_ text: String) -> Result<Int64, Int64.DecimalFailure> {
        Array(text.utf8).withUnsafeBufferPointer { Int64.decimal($0.span) }
    }

    @Test(arguments: [
        ("0", 0), ("7", 7), ("-0", 0), ("-42", -42), ("007", 7),
        ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
    ] as [(String, Int64)])
    func wholeNumbersInRangeAreRead(text: String, expected: Int64) throws {
        #expect(try Self.read(text).get() == expected)
    }

    @Test(arguments: ["", "-", "--1", "1-", "+1", "1.5", "1e3", " 1", "1 ", "0x10", "١"])
    func anythingButAMinusAndDigitsIsNotAWholeNumber(text: String) {
        guard case .failure(.notAWholeNumber) = Self.read(text) else {
            Issue.record("'\(text)' read as \(Self.read(text))")
            return
        }
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "99999999999999999999", "184467440737095516160"])
    func digitsPastInt64AreOutOfRange(text: String) {
        guard case .failure(.outOfRange) = Self.read(text) else {
            Issue.record("'\(text)' read as \(Self.read(text))")
            return
        }
    }
}
