// Ids, times and numbers are written into an `Array.append(addingCapacity:
// initializingWith:)` span: one capacity check for the lot, then appends
// that are bounds-checked against what was reserved (one past it stops the
// program) — no pointer, and no check per byte that the array is its own,
// which made byte-by-byte appends cost an export twice its time.

extension OutputSpan<UInt8> {
    /// The two decimal digits of `value` (0…99).
    @inline(__always)
    mutating func appendTwoDigits(_ value: Int64) {
        append(UInt8(ascii: "0") + UInt8(value / 10))
        append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The two lower-case hex digits of `byte`.
    @inline(__always)
    mutating func appendHex(_ byte: UInt8) {
        append(UInt8(hexDigitOf: byte >> 4))
        append(UInt8(hexDigitOf: byte & 0x0F))
    }

    /// The decimal digits of `value`, most significant first.
    package mutating func appendDecimal(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        repeat {
            append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }
}
