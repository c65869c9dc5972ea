import FoundationEssentials

/// What the HTTP source accepts as a number: a body that is an integer
/// (white space around it allowed), a JSON number with no fraction, or a
/// JSON object with a numeric `number` or `value`.
public enum NumberBody {
    /// The integer a body holds, if it holds one.
    public static func number(in body: Data) -> Int? {
        if let value = Int(trimmed(String(decoding: body, as: UTF8.self)[...])) { return value }
        let value: JSONValue? = body.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            guard let value = try? parser.parseValue() else { return nil }
            parser.skipWhitespace()
            return parser.isAtEnd ? value : nil
        }
        switch value {
        case .number(let text)?: return integer(text)
        case .object(let fields)?:
            for key in ["number", "value"] {
                if case .number(let text)? = fields[key] { return integer(text) }
            }
            return nil
        default: return nil
        }
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
