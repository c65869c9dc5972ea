import FetchHistoryModel

/// A value SQLite stores: what a statement binds and a row returns.
package enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(stringLiteral value: String) { self = .text(value) }
    package init(nilLiteral: ()) { self = .null }
}

extension SQLValue {
    /// `.text(value)`, or `.null` when `value` is nil.
    package static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// `.integer(value)`, or `.null` when `value` is nil.
    package static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    /// `.integer(Int64(value))`, or `.null` when `value` is nil.
    package static func integer(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
}

extension SQLValue {
    /// How the history stores a fetched value: an integer as an integer (so
    /// SQL that reads numbers keeps working), anything else as its JSON
    /// text; `.null` when there is none.
    static func value(_ value: FetchValue?) -> SQLValue {
        guard let value else { return .null }
        return value.integer.map { .integer(Int64($0)) } ?? .text(value.json)
    }
}
