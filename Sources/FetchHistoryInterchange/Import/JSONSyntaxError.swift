import FetchHistoryModel

/// A syntax error at a byte offset of the input.
struct JSONSyntaxError: Error {
    var offset: Int
    var message: String
    /// The parser had reached the end of the bytes it was given: with more
    /// input, the same text might be valid.
    var inputEnded: Bool
}
