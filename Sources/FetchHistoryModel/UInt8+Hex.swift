// The one hexadecimal encoder and decoder: UUIDs (`UUID+Text.swift`) and
// JSON's `\u` escapes (`JSONWriter`, `JSONParser`) both use these.

extension UInt8 {
    /// The lower-case ASCII hex digit of `nibble` (0…15): `0`…`9`, `a`…`f`.
    @inline(__always)
    package init(hexDigitOf nibble: UInt8) {
        precondition(nibble < 16, "a nibble is 0…15")
        self = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The value of this byte as an ASCII hex digit, either case; nil when
    /// it is not one.
    @inline(__always)
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
