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
    package func appendISO8601(to text: inout [UInt8]) {
        let (days, millisecondOfDay) = millisecondsSince1970.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        // 24 bytes, or 40 for the widest year an Int64 of milliseconds holds.
        text.append(addingCapacity: 40) { out in
            if (0...9999).contains(year) {
                out.appendTwoDigits(year / 100)
                out.appendTwoDigits(year % 100)
            } else {
                // Outside 0…9999 the year is written as it is.
                if year < 0 { out.append(UInt8(ascii: "-")) }
                out.appendDecimal(year.magnitude)
            }
            out.append(UInt8(ascii: "-"))
            out.appendTwoDigits(month)
            out.append(UInt8(ascii: "-"))
            out.appendTwoDigits(day)
            out.append(UInt8(ascii: "T"))
            out.appendTwoDigits(millisecondOfDay / 3_600_000)
            out.append(UInt8(ascii: ":"))
            out.appendTwoDigits(millisecondOfDay / 60_000 % 60)
            out.append(UInt8(ascii: ":"))
            out.appendTwoDigits(millisecondOfDay / 1000 % 60)
            out.append(UInt8(ascii: "."))
            let millisecond = millisecondOfDay % 1000
            out.append(UInt8(ascii: "0") + UInt8(millisecond / 100))
            out.appendTwoDigits(millisecond % 100)
            out.append(UInt8(ascii: "Z"))
        }
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
