import FoundationEssentials
import Glibc

/// A moment as whole milliseconds since 1970-01-01 00:00:00 UTC: how the
/// history stores every time.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// `date`, truncated to the millisecond.
    public init(_ date: Date) {
        millisecondsSince1970 = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The current wall-clock time.
    public static var now: Timestamp { Timestamp(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    /// This moment moved by `duration`, truncated to the millisecond.
    public func advanced(by duration: Duration) -> Timestamp {
        Timestamp(millisecondsSince1970: millisecondsSince1970 + duration.wholeMilliseconds)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-22T10:00:00.250Z`.
    ///
    /// Formatted from the integer by hand: Foundation's ISO8601 format style
    /// comes out 1 ms short for about half of whole-millisecond times on Linux.
    public var iso8601: String {
        String(unsafeUninitializedCapacity: 32) { buffer in writeISO8601(to: buffer.baseAddress!) }
    }

    /// Writes the `iso8601` form at `start` (at most 32 bytes) and returns
    /// its length. Digit by digit, with no String: exports do this several
    /// times per row.
    func writeISO8601(to start: UnsafeMutablePointer<UInt8>) -> Int {
        let (days, millisecondOfDay) = millisecondsSince1970.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        var cursor = start
        func put(_ byte: UInt8) {
            cursor.pointee = byte
            cursor += 1
        }
        func two(_ value: Int64) {
            put(UInt8(ascii: "0") + UInt8(value / 10))
            put(UInt8(ascii: "0") + UInt8(value % 10))
        }
        if (0...9999).contains(year) {
            two(year / 100)
            two(year % 100)
        } else {
            // Outside 0…9999 the year is written as it is.
            for byte in String(year).utf8 { put(byte) }
        }
        put(UInt8(ascii: "-"))
        two(month)
        put(UInt8(ascii: "-"))
        two(day)
        put(UInt8(ascii: "T"))
        two(millisecondOfDay / 3_600_000)
        put(UInt8(ascii: ":"))
        two(millisecondOfDay / 60_000 % 60)
        put(UInt8(ascii: ":"))
        two(millisecondOfDay / 1000 % 60)
        put(UInt8(ascii: "."))
        let millisecond = millisecondOfDay % 1000
        put(UInt8(ascii: "0") + UInt8(millisecond / 100))
        two(millisecond % 100)
        put(UInt8(ascii: "Z"))
        return cursor - start
    }

    public var description: String { iso8601 }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a
    /// day count, exact for every Int64 millisecond we can store.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The inverse of `civilDate`: days since 1970-01-01 of a Gregorian date.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Int64 {
    /// Quotient and remainder rounded towards minus infinity, so times before
    /// 1970 format correctly.
    func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

extension Timestamp {
    /// Parses an ISO 8601 date or date-time: `2026-11-22`,
    /// `2026-11-22T10:00:00Z`, `2026-11-22T10:00:00.250+01:00`. A date or time
    /// without a zone is in `timeZone`, or the user's (see `localOffset`).
    public init?(iso8601 text: String, timeZone: TimeZone? = nil) {
        var text = text
        guard let timestamp = text.withUTF8({ Self(iso8601: $0, timeZone: timeZone) }) else { return nil }
        self = timestamp
    }

    /// Parses the ISO 8601 forms of `init(iso8601:)` from UTF-8 bytes.
    /// The zone is only looked up for a time without one: imports parse
    /// four times a row.
    init?(iso8601 text: UnsafeBufferPointer<UInt8>, timeZone: TimeZone? = nil) {
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), (1...12).contains(month), scanner.skip("-"),
              let day = scanner.number(digits: 2), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var milliseconds = Self.daysSince1970(year: year, month: month, day: day) * 86_400_000
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
            var fraction: Int64 = 0
            if scanner.skip(".") {
                guard let digits = scanner.fractionMilliseconds() else { return nil }
                fraction = digits
            }
            milliseconds += ((hour * 60 + minute) * 60 + second) * 1000 + fraction
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
        if let zoneOffset {
            self.init(millisecondsSince1970: milliseconds - zoneOffset)
        } else {
            // The zone's offset at that moment; close enough to look it up at
            // the naive UTC reading, then correct once for a DST edge.
            let guess = Timestamp(millisecondsSince1970: milliseconds)
            var offset = guess.offsetMilliseconds(in: timeZone)
            offset = Timestamp(millisecondsSince1970: milliseconds - offset).offsetMilliseconds(in: timeZone)
            self.init(millisecondsSince1970: milliseconds - offset)
        }
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `yyyy-MM-dd HH:mm:ss` in `timeZone`, or the user's, for tables
    /// people read.
    public func localDescription(in timeZone: TimeZone? = nil) -> String {
        let local = Timestamp(millisecondsSince1970: millisecondsSince1970 + offsetMilliseconds(in: timeZone)).iso8601
        return local.prefix(10) + " " + local.dropFirst(11).prefix(8)
    }

    /// How far `timeZone` is ahead of UTC at this moment. Without a zone,
    /// the user's (`TZ`, else /etc/localtime) from the C library: with
    /// FoundationEssentials alone, `TimeZone.current` is always GMT.
    private func offsetMilliseconds(in timeZone: TimeZone?) -> Int64 {
        if let timeZone { return Int64(timeZone.secondsFromGMT(for: date)) * 1000 }
        var seconds = time_t(millisecondsSince1970.floorDivided(by: 1000).quotient)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return Int64(local.tm_gmtoff) * 1000
    }
}

/// Reads fixed-width digit fields from ASCII text.
private struct DigitScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ text: UnsafeBufferPointer<UInt8>) { bytes = text }

    var isAtEnd: Bool { index == bytes.count }

    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + digits] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// One to nine fraction digits, as milliseconds (truncated).
    mutating func fractionMilliseconds() -> Int64? {
        var digits: [Int64] = []
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits.count < 9 {
            digits.append(Int64(bytes[index] - UInt8(ascii: "0")))
            index += 1
        }
        guard !digits.isEmpty else { return nil }
        let padded = (digits + [0, 0, 0]).prefix(3)
        return padded.reduce(0) { $0 * 10 + $1 }
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
