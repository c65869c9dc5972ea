import FetchHistoryModel

/// An input that is exactly one JSON value, white space around it allowed:
/// what the HTTP source reads an answer's body as (`NumberBody`, which
/// lives with it). The grammar stays here, in the one parser.
package struct JSONDocument {
    /// The value, exactly as written but for the white space between its tokens.
    package let value: FetchValue
    /// For an object, its members whose values are numbers, by name; empty
    /// for anything else.
    package let numberMembers: [String: FetchValue]

    /// Nil unless `bytes` hold one valid JSON value and nothing else but
    /// white space.
    package init?(_ bytes: [UInt8]) {
        var parser = JSONParser(bytes: bytes)
        guard let token = try? parser.value() else { return nil }
        parser.skipWhitespace()
        guard parser.isAtEnd else { return nil }
        var numbers: [String: FetchValue] = [:]
        if token.kind == .object {
            var members = JSONParser(bytes: bytes, from: token.start)
            do throws(JSONSyntaxError) {
                try members.members { key, parser throws(JSONSyntaxError) in
                    let value = try parser.value(depth: 1)
                    if value.kind == .number { numbers[try parser.string(key)] = FetchValue(value, in: bytes) }
                }
            } catch {
                return nil
            }
        }
        value = FetchValue(token, in: bytes)
        numberMembers = numbers
    }
}
