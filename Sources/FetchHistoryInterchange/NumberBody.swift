import FetchHistoryModel
import FoundationEssentials

/// What the HTTP source reads from a body.
///
/// - `value(in:)`, what the history records: an integer in plain text (white
///   space around it allowed), or any one JSON value — a number as written
///   (`3.5`, `1e400`), a string, an array, `true`, `false`, `null`, an object.
///   An object with a numeric `number` member, or else a numeric `value`
///   member, is that number, as the HTTP source has always read it
///   (`{"value": 3.5, "unit": "s"}` is `3.5`).
/// - `number(in:)`, for an `APIClient` of numbers: that value when it is a
///   number with no fraction (`42`, `42.0`, `4.2e1`) that fits an `Int`
///   exactly.
///
/// ```swift
/// NumberBody.value(in: Data(#"{"id": 7, "name": "Ada"}"#.utf8))?.json   // {"id":7,"name":"Ada"}
/// NumberBody.value(in: Data(#"{"value": 3.5}"#.utf8))?.json             // 3.5
/// NumberBody.number(in: Data("42\n".utf8))                              // 42
/// ```
public enum NumberBody {
    /// The value a body holds, if it holds one: a plain-text integer or one
    /// JSON value (white space around it allowed).
    public static func value(in body: Data) -> FetchValue? {
        if let integer = Int(trimmed(String(decoding: body, as: UTF8.self)[...])) { return FetchValue(integer) }
        let bytes = Array(body)
        var parser = JSONParser(bytes: bytes)
        guard let token = try? parser.value() else { return nil }
        parser.skipWhitespace()
        guard parser.isAtEnd else { return nil }
        if token.kind == .object {
            var members = JSONParser(bytes: bytes, from: token.start)
            guard let numbers = try? numberMembers(&members) else { return nil }
            if let number = numbers["number"] ?? numbers["value"] { return FetchValue(number, in: bytes) }
        }
        return FetchValue(token, in: bytes)
    }

    /// The integer a body holds, if it holds one.
    public static func number(in body: Data) -> Int? {
        guard let value = value(in: body) else { return nil }
        return integer(value.json)
    }

    /// The members of the object at the parser whose values are numbers.
    private static func numberMembers(_ parser: inout JSONParser) throws(JSONSyntaxError) -> [String: JSONToken] {
        var numbers: [String: JSONToken] = [:]
        try parser.members { key, parser throws(JSONSyntaxError) in
            let value = try parser.value(depth: 1)
            if value.kind == .number { numbers[try parser.string(key)] = value }
        }
        return numbers
    }

    /// A JSON number's integer value: `42`, `42.0` and `4.2e1` are 42; `42.5`
    /// is not an integer, and neither is anything but a number.
    private static func integer(_ text: String) -> Int? {
        if let value = Int(text) { return value }
        guard let double = Double(text), double.rounded() == double, abs(double) < 9.0e15 else { return nil }
        return Int(double)
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
