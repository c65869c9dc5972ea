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
struct ISO8601DateTime: Hashable {
    /// The date and time read as if they were UTC, in milliseconds since 1970.
    var millisecondsAsIfUTC: Int64
    /// How far ahead of UTC the zone the text names is (`Z`: 0); nil when
    /// it names none.
    var zoneOffsetMilliseconds: Int64?

    /// Parses `text`; nil unless all of it is one of the accepted forms.
    init?<Bytes: RandomAccessCollection<UInt8>>(utf8 text: Bytes) where Bytes.Index == Int {
        var index = text.startIndex
        /// Passes `count` digits and returns their value.
        func number(digits count: Int) -> Int64? {
            guard text.endIndex - index >= count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
                index += 1
            }
            return value
        }
        /// Passes `character` if it comes next.
        func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < text.endIndex, text[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        guard let year = number(digits: 4), skip("-"),
              let month = number(digits: 2), (1...12).contains(month), skip("-"),
              let day = number(digits: 2), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var milliseconds = Timestamp.daysSince1970(year: year, month: month, day: day) * 86_400_000
        var zoneOffset: Int64?
        if skip("T") || skip(" ") {
            guard let hour = number(digits: 2), hour < 24, skip(":"),
                  let minute = number(digits: 2), minute < 60
            else { return nil }
            var second: Int64 = 0
            if skip(":") {
                guard let value = number(digits: 2), value < 60 else { return nil }
                second = value
            }
            var millisecond: Int64 = 0
            if skip(".") {
                // One to nine digits; the first three are the milliseconds.
                var count = 0
                while count < 9, index < text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
                    if count < 3 { millisecond = millisecond * 10 + Int64(text[index] - UInt8(ascii: "0")) }
                    count += 1
                    index += 1
                }
                guard count > 0 else { return nil }
                for _ in count..<max(count, 3) { millisecond *= 10 }
            }
            milliseconds += ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
            if skip("Z") || skip("z") {
                zoneOffset = 0
            } else if skip("+") || skip("-") {
                let sign: Int64 = text[index - 1] == UInt8(ascii: "-") ? -1 : 1
                guard let hours = number(digits: 2), hours < 24 else { return nil }
                _ = skip(":")
                guard let minutes = number(digits: 2), minutes < 60 else { return nil }
                zoneOffset = sign * (hours * 60 + minutes) * 60_000
            }
        }
        guard index == text.endIndex else { return nil }
        millisecondsAsIfUTC = milliseconds
        zoneOffsetMilliseconds = zoneOffset
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
