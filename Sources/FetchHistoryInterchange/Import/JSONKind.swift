import FetchHistoryModel

/// The type of a JSON value, for messages.
enum JSONKind {
    case null, bool, number, string, array, object

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
