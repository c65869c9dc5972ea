import FoundationEssentials

// UUIDs are read and written for every row of an export or a listing.
// Foundation parses them with sscanf and formats them upper-case, which was
// close to half the cost of an export; these work on the bytes directly.

extension UUID {
    /// The lower-case form the history stores and prints.
    public var lowercased: String {
        String(unsafeUninitializedCapacity: 36) { buffer in writeLowercased(to: buffer.baseAddress!) }
    }

    /// Writes the 36-character lower-case form at `start`; returns 36.
    func writeLowercased(to start: UnsafeMutablePointer<UInt8>) -> Int {
        let hex: StaticString = "0123456789abcdef"
        var cursor = start
        withUnsafeBytes(of: uuid) { raw in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    cursor.pointee = UInt8(ascii: "-")
                    cursor += 1
                }
                let byte = raw[index]
                cursor[0] = hex.utf8Start[Int(byte >> 4)]
                cursor[1] = hex.utf8Start[Int(byte & 0x0F)]
                cursor += 2
            }
        }
        return cursor - start
    }

    /// Parses the 36-character form (either case) from UTF-8 bytes; nil for
    /// anything else.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Self.hexValue(text[position]), let low = Self.hexValue(text[position + 1]) else {
                    return false
                }
                bytes[index] = high << 4 | low
                position += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.init(uuid: value)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
