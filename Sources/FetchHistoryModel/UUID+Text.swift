import FoundationEssentials

// UUIDs are read and written for every row of an export or a listing.
// Foundation parses them with sscanf and formats them upper-case, which was
// close to half the cost of an export; these work on the bytes directly.

extension UUID {
    /// The lower-case form the history stores and prints.
    public var lowercased: String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        appendLowercased(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the 36-character lower-case form to `text`.
    package func appendLowercased(to text: inout [UInt8]) {
        let bytes = uuid
        text.append(addingCapacity: 36) { out in
            out.appendHex(bytes.0); out.appendHex(bytes.1); out.appendHex(bytes.2); out.appendHex(bytes.3)
            out.append(UInt8(ascii: "-"))
            out.appendHex(bytes.4); out.appendHex(bytes.5)
            out.append(UInt8(ascii: "-"))
            out.appendHex(bytes.6); out.appendHex(bytes.7)
            out.append(UInt8(ascii: "-"))
            out.appendHex(bytes.8); out.appendHex(bytes.9)
            out.append(UInt8(ascii: "-"))
            out.appendHex(bytes.10); out.appendHex(bytes.11); out.appendHex(bytes.12)
            out.appendHex(bytes.13); out.appendHex(bytes.14); out.appendHex(bytes.15)
        }
    }

    /// Parses the 36-character form (either case) from UTF-8 bytes; nil for
    /// anything else.
    ///
    /// Specialized here for the two callers' byte types: called from another
    /// module, a generic function runs unspecialized, through witness tables
    /// and heap-allocated accessors (measured: 63% of an export's
    /// instructions went to this one call before).
    @_specialize(exported: true, where Bytes == UnsafeBufferPointer<UInt8>)
    @_specialize(exported: true, where Bytes == ArraySlice<UInt8>)
    package init?<Bytes: RandomAccessCollection<UInt8>>(utf8 text: Bytes) where Bytes.Index == Int {
        guard text.count == 36 else { return nil }
        let start = text.startIndex
        let dash = UInt8(ascii: "-")
        guard text[start + 8] == dash, text[start + 13] == dash, text[start + 18] == dash, text[start + 23] == dash
        else { return nil }
        /// The byte whose two hex digits start at `offset`; nil when they are not hex digits.
        func byte(at offset: Int) -> UInt8? {
            guard let high = text[start + offset].hexDigitValue, let low = text[start + offset + 1].hexDigitValue else { return nil }
            return high << 4 | low
        }
        guard let b0 = byte(at: 0), let b1 = byte(at: 2), let b2 = byte(at: 4), let b3 = byte(at: 6),
              let b4 = byte(at: 9), let b5 = byte(at: 11), let b6 = byte(at: 14), let b7 = byte(at: 16),
              let b8 = byte(at: 19), let b9 = byte(at: 21), let b10 = byte(at: 24), let b11 = byte(at: 26),
              let b12 = byte(at: 28), let b13 = byte(at: 30), let b14 = byte(at: 32), let b15 = byte(at: 34)
        else { return nil }
        self.init(uuid: (b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15))
    }
}
