extension Timestamp {
    /// Parses exactly what `writeISO8601` writes for the years 0…9999,
    /// `2026-11-22T10:00:00.250Z`, reading the digits at their fixed places:
    /// an import reads four times a record. Anything else is nil and left to
    /// `init(iso8601:)`, days after the 28th too (they need the month's length).
    init?(exportedISO8601 text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 24, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "."),
              text[23] == UInt8(ascii: "Z")
        else { return nil }
        guard let year = Self.digits(text, 0, 4), let month = Self.digits(text, 5, 2), (1...12).contains(month),
              let day = Self.digits(text, 8, 2), (1...28).contains(day), let hour = Self.digits(text, 11, 2), hour < 24,
              let minute = Self.digits(text, 14, 2), minute < 60, let second = Self.digits(text, 17, 2), second < 60,
              let millisecond = Self.digits(text, 20, 3)
        else { return nil }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        self.init(millisecondsSince1970: days * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    /// The number written by the `count` digits at `start`, nil for a non-digit.
    private static func digits(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for index in start..<start + count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }
}
