import FetchHistoryModel

/// Recorded text made safe to put in the report: escaped for HTML (element
/// content and quoted attributes alike), control characters and
/// bidirectional overrides shown as visible escapes, so no text can reverse
/// or hide what follows it. (`ReportFormat.shortened` cuts it to `limit`.)
enum HTMLText {
    /// How much of a value or error the page shows; the rest is counted.
    static let limit = 300

    static func escaped(_ text: String) -> String {
        // Most of a page is plain ASCII text with nothing to escape: given back as it is.
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && !Self.markup.contains($0) }) { return text }
        // Line breaks stay: cells and the details panel keep them (pre-wrap).
        let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }.joined(separator: "\n")
        // Byte by byte: the markup is ASCII, and no byte of a longer UTF-8 sequence is ASCII.
        var out: [UInt8] = []
        out.reserveCapacity(safe.utf8.count + 16)
        for byte in safe.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            case UInt8(ascii: "'"): out += "&#39;".utf8
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `escaped` replaces: & < > " '.
    private static let markup: [UInt8] = [0x26, 0x3C, 0x3E, 0x22, 0x27]

}
