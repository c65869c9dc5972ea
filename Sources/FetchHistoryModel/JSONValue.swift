import FoundationEssentials

/// Any JSON value, decoded: what the command-line replay drives the view
/// state with when it does not know the app's value type, how two recorded
/// values are compared (objects by their members, not key order), and how a
/// `FetchValue` goes through a coder other than its own.
package enum JSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension FetchValue {
    /// Whether the two hold the same JSON value, whatever their spacing or
    /// key order.
    package func isSameValue(as other: FetchValue) -> Bool {
        guard self != other else { return true }
        guard let mine = try? decoded(as: JSONValue.self), let theirs = try? other.decoded(as: JSONValue.self) else { return false }
        return mine == theirs
    }
}
