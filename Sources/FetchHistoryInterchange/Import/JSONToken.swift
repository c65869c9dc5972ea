import FetchHistoryModel

/// Where one JSON value lies in the input, found without building it: a
/// reader decodes only the values it wants, straight from the bytes.
struct JSONToken {
    var kind: JSONKind
    /// The value's bytes; for a string, those between the quotes.
    var start: Int
    var end: Int
    /// A string holding backslash escapes, which `JSONParser.string(_:)` decodes.
    var isEscaped = false
}
