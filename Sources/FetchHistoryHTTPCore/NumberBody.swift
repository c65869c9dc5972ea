import FetchHistoryInterchange
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
        guard let document = JSONDocument(Array(body)) else { return nil }
        return document.numberMembers["number"] ?? document.numberMembers["value"] ?? document.value
    }

    /// The integer a body holds, if it holds one.
    public static func number(in body: Data) -> Int? {
        guard let value = value(in: body) else { return nil }
        return integer(value.json)
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
