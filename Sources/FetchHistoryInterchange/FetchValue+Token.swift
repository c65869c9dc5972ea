import FetchHistoryModel

extension FetchValue {
    /// The JSON value `token` finds in `bytes` (checked by `JSONParser`),
    /// exactly as written but for the white space between its tokens: an
    /// imported record's value, or an HTTP answer.
    init(_ token: JSONToken, in bytes: [UInt8]) {
        let text = bytes[token.start..<token.end]
        let json = switch token.kind {
        case .null: "null"
        // A string token holds what is between the quotes.
        case .string: String(decoding: bytes[(token.start - 1)..<(token.end + 1)], as: UTF8.self)
        case .object, .array: Self.compacted(text)
        case .number, .bool: String(decoding: text, as: UTF8.self)
        }
        self.init(validJSON: json)
    }

    /// `json` (one valid value) without white space outside its strings.
    private static func compacted(_ json: ArraySlice<UInt8>) -> String {
        var compact: [UInt8] = []
        compact.reserveCapacity(json.count)
        var isInString = false
        var isEscaped = false
        for byte in json {
            if isInString {
                if isEscaped { isEscaped = false }
                else if byte == UInt8(ascii: "\\") { isEscaped = true }
                else if byte == UInt8(ascii: "\"") { isInString = false }
            } else if byte == UInt8(ascii: "\"") {
                isInString = true
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                continue
            }
            compact.append(byte)
        }
        return String(decoding: compact, as: UTF8.self)
    }
}
