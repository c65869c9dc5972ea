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
    /// in between: an export writes four times a row.
    func appendISO8601(to text: inout [UInt8]) {
        let (days, millisecondOfDay) = millisecondsSince1970.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        func two(_ value: Int64) {
            text.append(UInt8(ascii: "0") + UInt8(value / 10))
            text.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        if (0...9999).contains(year) {
            two(year / 100)
            two(year % 100)
        } else {
            // Outside 0…9999 the year is written as it is.
            text.append(contentsOf: String(year).utf8)
        }
        text.append(UInt8(ascii: "-"))
        two(month)
        text.append(UInt8(ascii: "-"))
        two(day)
        text.append(UInt8(ascii: "T"))
        two(millisecondOfDay / 3_600_000)
        text.append(UInt8(ascii: ":"))
        two(millisecondOfDay / 60_000 % 60)
        text.append(UInt8(ascii: ":"))
        two(millisecondOfDay / 1000 % 60)
        text.append(UInt8(ascii: "."))
        let millisecond = millisecondOfDay % 1000
        text.append(UInt8(ascii: "0") + UInt8(millisecond / 100))
        two(millisecond % 100)
        text.append(UInt8(ascii: "Z"))
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
