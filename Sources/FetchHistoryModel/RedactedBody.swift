/// A server's answer with its secrets replaced by `***`, as `RedactedURL`
/// replaces a URL's: the names are `RedactedURL.secretNames`, matched the
/// same way (lower-cased, the name is or ends with one of them).
///
/// - JSON (a Content-Type naming `json`, or else a body that starts with
///   `{` or `[`): the value of every member whose name looks secret, at any
///   depth, becomes `"***"` — a string, a number, an object or an array
///   alike. A body cut short is read as far as it goes: a value it ends
///   in is hidden too.
/// - Anything else is read as form fields (`name=value` pairs separated by
///   `&` or `;`), as a URL's query is: `token=abc&page=2` becomes
///   `token=***&page=2`.
///
/// ```swift
/// RedactedBody(#"{"error":"busy","session":{"id":7}}"#, contentType: "application/json").description
/// // {"error":"busy","session":"***"}
/// RedactedBody("user=ada&password=pw", contentType: "application/x-www-form-urlencoded").description
/// // user=ada&password=***
/// ```
public struct RedactedBody: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ text: String, contentType: String?) {
        description = Self.isJSON(text, contentType: contentType)
            ? Self.hidingMembers(in: text) : RedactedURL.redactParameters(text)
    }

    private static func isJSON(_ text: String, contentType: String?) -> Bool {
        if let type = contentType?.lowercased() {
            if type.contains("json") { return true }
            if type.contains("x-www-form-urlencoded") { return false }
        }
        let first = text.utf8.first { !isWhiteSpace($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// `text` with the value of each member named like a secret replaced by `"***"`.
    private static func hidingMembers(in text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let nameEnd = stringEnd(bytes, from: index)
            let name = bytes[(index + 1)..<max(index + 1, nameEnd - 1)]
            out.append(contentsOf: bytes[index..<nameEnd])
            index = nameEnd
            // A member's name is a string followed by a colon.
            var valueStart = nameEnd
            while valueStart < bytes.count, isWhiteSpace(bytes[valueStart]) { valueStart += 1 }
            guard valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: ":"),
                  RedactedURL.isSecretName(decoded(name))
            else { continue }
            valueStart += 1
            while valueStart < bytes.count, isWhiteSpace(bytes[valueStart]) { valueStart += 1 }
            out.append(contentsOf: bytes[nameEnd..<valueStart])
            index = valueStart
            guard valueStart < bytes.count else { break }
            out.append(contentsOf: #""***""#.utf8)
            index = valueEnd(bytes, from: valueStart)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where the string that opens at `start` ends (after its closing
    /// quote), or the end of `bytes` when it is not closed.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// Where the value that starts at `start` ends: a string's closing
    /// quote, an object's or array's closing bracket, a number's or
    /// literal's last byte; the end of `bytes` for one cut short.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""): return stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = stringEnd(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.count
        default:
            var index = start
            while index < bytes.count, !isWhiteSpace(bytes[index]), !",}]".utf8.contains(bytes[index]) { index += 1 }
            return index
        }
    }

    /// A member's name as JSON escapes spell it: `\u0074oken` is `token`.
    /// Escapes it cannot read stay as they are, which no secret name matches.
    private static func decoded(_ name: ArraySlice<UInt8>) -> String {
        guard name.contains(UInt8(ascii: "\\")) else { return String(decoding: name, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var rest = Substring(String(decoding: name, as: UTF8.self)).unicodeScalars[...]
        while let scalar = rest.popFirst() {
            guard scalar == "\\", let escape = rest.popFirst() else {
                scalars.append(scalar)
                continue
            }
            switch escape {
            case "u":
                let digits = String(String.UnicodeScalarView(rest.prefix(4)))
                if digits.count == 4, let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) {
                    scalars.append(decoded)
                    rest = rest.dropFirst(4)
                } else {
                    scalars.append(contentsOf: ["\\", "u"])
                }
            case "n": scalars.append("\n")
            case "t": scalars.append("\t")
            case "r": scalars.append("\r")
            case "b": scalars.append("\u{8}")
            case "f": scalars.append("\u{C}")
            default: scalars.append(escape)
            }
        }
        return String(scalars)
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
