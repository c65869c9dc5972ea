import FetchHistoryModel
import FoundationEssentials

/// What the HTTP source accepts as a number: a body that is an integer
/// (white space around it allowed), a JSON number with no fraction, or a
/// JSON object with a numeric `number` or `value`.
public enum NumberBody {
    /// The integer a body holds, if it holds one.
    public static func number(in body: Data) -> Int? {
        if let value = Int(trimmed(String(decoding: body, as: UTF8.self)[...])) { return value }
        var parser = JSONParser(bytes: Array(body))
        parser.skipWhitespace()
        let number: String?
        if parser.current == UInt8(ascii: "{") {
            guard let numbers = try? numberMembers(&parser) else { return nil }
            number = numbers["number"] ?? numbers["value"]
        } else {
            guard let value = try? parser.value(), value.kind == .number else { return nil }
            number = String(decoding: parser.text(of: value), as: UTF8.self)
        }
        parser.skipWhitespace()
        return parser.isAtEnd ? number.flatMap(integer) : nil
    }

    /// The members of the object at the parser whose values are numbers,
    /// as text; throws for invalid JSON, a repeated key included.
    private static func numberMembers(_ parser: inout JSONParser) throws(JSONSyntaxError) -> [String: String] {
        var keys: Set<String> = []
        var numbers: [String: String] = [:]
        try parser.members { key, parser throws(JSONSyntaxError) in
            let name = try parser.string(key)
            guard keys.insert(name).inserted else { throw parser.error("the key '\(name)' appears twice", at: key.start - 1) }
            let value = try parser.value(depth: 1)
            if value.kind == .number { numbers[name] = String(decoding: parser.text(of: value), as: UTF8.self) }
        }
        return numbers
    }

    /// A JSON number's integer value: `42`, `42.0` and `4.2e1` are 42; `42.5` is not an integer.
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
