import FoundationEssentials

extension Timestamp {
    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-22T10:00:00.250Z`.
    ///
    /// Formatted from the integer by hand: Foundation's ISO8601 format style
    /// comes out 1 ms short for about half of whole-millisecond times on Linux.
    public var iso8601: String {
        var text: [UInt8] = []
        text.reserveCapacity(24)
        appendISO8601(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the `iso8601` form to `text`, digit by digit with no String
    /// in between.
    package func appendISO8601(to text: inout [UInt8]) {
        var recent = ISO8601Recent()
        text.write(room: Self.iso8601MaximumCount) { appendISO8601(to: &$0, recent: &recent) }
    }

    /// The most bytes `appendISO8601` writes: 24, or 40 for the widest year
    /// an Int64 of milliseconds holds.
    package static var iso8601MaximumCount: Int { 40 }

    /// Appends the `iso8601` form to `out`, which has room for
    /// `iso8601MaximumCount` bytes. `recent` holds what was written last:
    /// an export writes four times a row, nearly all on the day of the one
    /// before, and a fetch's tap is often its start, how it ended its end.
    package func appendISO8601(to out: inout ByteWriter, recent: inout ISO8601Recent) {
        guard let text = recent.text(of: self) else {
            // Outside years 0…9999 the year is written as it is.
            let (days, millisecondOfDay) = millisecondsSince1970.floorDivided(by: 86_400_000)
            let (year, month, day) = Self.civilDate(daysSince1970: days)
            let dash = UInt64(UInt8(ascii: "-"))
            if year < 0 { out.append(bytesOf: dash, count: 1) }
            out.appendDecimal(year.magnitude)
            out.append(bytesOf: dash | Digits.two(month) << 8 | dash << 24, count: 4)
            let (minuteOfDay, millisecondOfMinute) = millisecondOfDay.quotientAndRemainder(dividingBy: 60_000)
            out.append(bytesOf: ISO8601Recent.dayAndMinute(day: day, minuteOfDay: minuteOfDay), count: 8)
            return out.append(bytesOf: ISO8601Recent.seconds(millisecondOfMinute), count: 8)
        }
        out.append(bytesOf: text.0, count: 8)
        out.append(bytesOf: text.1, count: 8)
        out.append(bytesOf: text.2, count: 8)
    }

    /// Parses an ISO 8601 date or date-time (see `ISO8601DateTime`):
    /// `2026-11-22`, `2026-11-22T10:00:00Z`, `2026-11-22T10:00:00.250+01:00`.
    /// A date or time without a zone is in `timeZone`, or the user's (see
    /// `init(localMilliseconds:in:)`).
    public init?(iso8601 text: String, timeZone: TimeZone? = nil) {
        guard let written = ISO8601DateTime(utf8: Array(text.utf8)) else { return nil }
        if let offset = written.zoneOffsetMilliseconds {
            self.init(millisecondsSince1970: written.millisecondsAsIfUTC - offset)
        } else {
            self.init(localMilliseconds: written.millisecondsAsIfUTC, in: timeZone)
        }
    }
}

/// The times an ISO 8601 writer wrote last, formatted: the last two (a
/// fetch's tap is often its start, how it ended its end, with another time
/// in between), and the minute and day of the last, reused for times in the
/// same minute (a fetch's end, most often) or on the same day.
package struct ISO8601Recent {
    /// `2026-11-22T10:00:00.250Z` in three words: `2026-11-`,
    /// `22T10:00`, `:00.250Z`.
    fileprivate typealias Text = (UInt64, UInt64, UInt64)

    private var last: (milliseconds: Int64, text: Text) = (.min, (0, 0, 0))
    private var previous: (milliseconds: Int64, text: Text) = (.min, (0, 0, 0))
    /// The last minute, in minutes since 1970, and its first two words.
    private var minute: (minutes: Int64, text: (UInt64, UInt64)) = (.min, (0, 0))
    /// The last day, in days since 1970, its `YYYY-MM-` word and its day of the month.
    private var day: (days: Int64, yearMonth: UInt64, day: Int64) = (.min, 0, 0)

    package init() {}

    /// The text of `time`; nil for a year outside 0…9999.
    fileprivate mutating func text(of time: Timestamp) -> Text? {
        let milliseconds = time.millisecondsSince1970
        if milliseconds == last.milliseconds { return last.text }
        if milliseconds == previous.milliseconds {
            swap(&last, &previous)
            return last.text
        }
        let (minutes, millisecondOfMinute) = milliseconds.floorDivided(by: 60_000)
        if minutes != minute.minutes {
            let (days, minuteOfDay) = minutes.floorDivided(by: 1440)
            if days != day.days {
                let (year, month, dayOfMonth) = Timestamp.civilDate(daysSince1970: days)
                guard (0...9999).contains(year) else { return nil }
                let dash = UInt64(UInt8(ascii: "-"))
                day = (days, Digits.two(year / 100) | Digits.two(year % 100) << 16 | dash << 32 | Digits.two(month) << 40 | dash << 56, dayOfMonth)
            }
            minute = (minutes, (day.yearMonth, Self.dayAndMinute(day: day.day, minuteOfDay: minuteOfDay)))
        }
        previous = last
        last = (milliseconds, (minute.text.0, minute.text.1, Self.seconds(millisecondOfMinute)))
        return last.text
    }

    /// `DDTHH:MM`.
    fileprivate static func dayAndMinute(day: Int64, minuteOfDay: Int64) -> UInt64 {
        Digits.two(day) | UInt64(UInt8(ascii: "T")) << 16 | Digits.two(minuteOfDay / 60) << 24
            | UInt64(UInt8(ascii: ":")) << 40 | Digits.two(minuteOfDay % 60) << 48
    }

    /// `:SS.mmmZ`.
    fileprivate static func seconds(_ millisecondOfMinute: Int64) -> UInt64 {
        let (second, millisecond) = millisecondOfMinute.quotientAndRemainder(dividingBy: 1000)
        return UInt64(UInt8(ascii: ":")) | Digits.two(second) << 8 | UInt64(UInt8(ascii: ".")) << 24
            | Digits.packed(UInt64(millisecond), count: 3).word << 32 | UInt64(UInt8(ascii: "Z")) << 56
    }
}
