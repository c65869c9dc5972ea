/// An ISO 8601 (RFC 3339) date or date-time as it is written, before any
/// time zone is applied: the one parser of times, for the command line's
/// `--since`/`--until` (`Timestamp(iso8601:)`) and for every time an import
/// reads (four a record, so it works on the bytes and allocates nothing).
///
/// Accepted: `2026-11-22`; `2026-11-22T10:00`, with `:05` seconds and a
/// fraction of one to nine digits (`.250`, truncated to the millisecond);
/// `T` or a space between date and time; then optionally `Z`, `z` or an
/// offset `+01:00` / `-0530`. Years are four digits. Days that do not exist
/// (`2025-02-29`, `2025-04-31`) are refused.
///
/// ```swift
/// let written = ISO8601DateTime(utf8: Array("2026-11-22T10:00:00.250+01:00".utf8))
/// // written?.millisecondsAsIfUTC == 1_795_341_600_250, written?.zoneOffsetMilliseconds == 3_600_000
/// ```
package struct ISO8601DateTime: Hashable {
    /// The date and time read as if they were UTC, in milliseconds since 1970.
    package var millisecondsAsIfUTC: Int64
    /// How far ahead of UTC the zone the text names is (`Z`: 0); nil when
    /// it names none.
    package var zoneOffsetMilliseconds: Int64?

    /// Parses `text`; nil unless all of it is one of the accepted forms.
    // Specialized for the importer's bytes, as `UUID.init(utf8:)` is.
    @_specialize(exported: true, where Bytes == ArraySlice<UInt8>)
    @_specialize(exported: true, where Bytes == UnsafeBufferPointer<UInt8>)
    package init?<Bytes: RandomAccessCollection<UInt8>>(utf8 text: Bytes) where Bytes.Index == Int {
        var scanner = Scanner(text: text, index: text.startIndex)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), (1...12).contains(month), scanner.skip("-"),
              let day = scanner.number(digits: 2), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var milliseconds = Timestamp.daysSince1970(year: year, month: month, day: day) * 86_400_000
        var zoneOffset: Int64?
        if scanner.skip("T") || scanner.skip(" ") {
            guard let hour = scanner.number(digits: 2), hour < 24, scanner.skip(":"),
                  let minute = scanner.number(digits: 2), minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.skip(":") {
                guard let value = scanner.number(digits: 2), value < 60 else { return nil }
                second = value
            }
            var millisecond: Int64 = 0
            if scanner.skip(".") {
                guard let value = scanner.fractionMilliseconds() else { return nil }
                millisecond = value
            }
            milliseconds += ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
            if scanner.skip("Z") || scanner.skip("z") {
                zoneOffset = 0
            } else if let sign = scanner.sign() {
                guard let hours = scanner.number(digits: 2), hours < 24 else { return nil }
                _ = scanner.skip(":")
                guard let minutes = scanner.number(digits: 2), minutes < 60 else { return nil }
                zoneOffset = sign * (hours * 60 + minutes) * 60_000
            }
        }
        guard scanner.isAtEnd else { return nil }
        millisecondsAsIfUTC = milliseconds
        zoneOffsetMilliseconds = zoneOffset
    }

    /// A position in the text and the steps of the grammar from it.
    private struct Scanner<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
        let text: Bytes
        var index: Int

        var isAtEnd: Bool { index == text.endIndex }

        /// Passes `count` digits and returns their value.
        @inline(__always)
        mutating func number(digits count: Int) -> Int64? {
            guard text.endIndex - index >= count else { return nil }
            var value: Int64 = 0
            for offset in 0..<count {
                let digit = text[index + offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            index += count
            return value
        }

        /// Passes `character` if it comes next.
        @inline(__always)
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < text.endIndex, text[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Passes `+` (1) or `-` (-1).
        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }

        /// Passes one to nine digits of a fraction of a second; the first
        /// three are the milliseconds.
        mutating func fractionMilliseconds() -> Int64? {
            var milliseconds: Int64 = 0
            var count = 0
            while count < 9, index < text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
                if count < 3 { milliseconds = milliseconds * 10 + Int64(text[index] - UInt8(ascii: "0")) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { milliseconds *= 10 }
            return milliseconds
        }
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
