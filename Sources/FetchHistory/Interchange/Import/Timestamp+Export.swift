extension Timestamp {
    /// Parses exactly what `writeISO8601` writes for the years 0…9999,
    /// `2026-11-22T10:00:00.250Z`, reading the digits at their fixed places:
    /// an import reads four times a record. Anything else is nil, left to
    /// `init(iso8601:)`.
    init?(exportedISO8601 text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 24, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "."),
              text[23] == UInt8(ascii: "Z")
        else { return nil }
        var allDigits = true
        func number(_ start: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for index in start..<start + count {
                let digit = text[index] &- UInt8(ascii: "0")
                allDigits = allDigits && digit < 10
                value = value * 10 + Int64(digit)
            }
            return value
        }
        let (year, month, day) = (number(0, 4), number(5, 2), number(8, 2))
        let (hour, minute, second, millisecond) = (number(11, 2), number(14, 2), number(17, 2), number(20, 3))
        guard allDigits, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        // A day past the 28th must be in its month (not April 31st): it then
        // counts to a day that reads back the same.
        guard day <= 28 || Self.civilDate(daysSince1970: days) == (year, month, day) else { return nil }
        self.init(millisecondsSince1970: days * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }
}
