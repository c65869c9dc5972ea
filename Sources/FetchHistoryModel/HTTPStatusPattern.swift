/// What `--status` takes: one HTTP status code (`404`) or a class of them
/// (`4xx`, any case: 400 to 499). RFC 9110 §15: "All valid status codes are
/// within the range of 100 to 599, inclusive", and "the first digit of the
/// status-code defines the class of response", so the classes are `1xx` to
/// `5xx`.
///
/// ```swift
/// HTTPStatusPattern("5xx")?.matches(503)   // true
/// HTTPStatusPattern("404")?.matches(403)   // false
/// HTTPStatusPattern("42")                  // nil: not a status
/// ```
public struct HTTPStatusPattern: Hashable, Sendable {
    /// The codes it matches: one, or the hundred of a class.
    public let codes: ClosedRange<Int>

    /// The pattern `text` writes, or nil when it is no status code or class.
    public init?(_ text: String) {
        let characters = Array(text.utf8)
        guard characters.count == 3, let first = characters.first, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(first) else {
            return nil
        }
        let hundreds = Int(first - UInt8(ascii: "0")) * 100
        let rest = characters.dropFirst()
        if rest.allSatisfy({ $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }) {
            codes = hundreds...(hundreds + 99)
        } else if rest.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            let code = hundreds + Int(rest.first! - UInt8(ascii: "0")) * 10 + Int(rest.last! - UInt8(ascii: "0"))
            codes = code...code
        } else {
            return nil
        }
    }

    /// Whether a fetch answered with `code` matches: the value every
    /// store's translation must agree with.
    public func matches(_ code: Int) -> Bool {
        codes.contains(code)
    }
}
