import FoundationEssentials

/// A fetched value as the history keeps it: its JSON text, exactly.
///
/// An `Int` is the JSON number it is (`42`), a `String` a JSON string, a
/// `User` the object its `Encodable` conformance makes, keys sorted so the
/// same value always has the same text. The store keeps integers as SQLite
/// integers, so filters, statistics and scripts that read numbers still work,
/// and every other value as its JSON text.
///
/// ```swift
/// let value = try FetchValue(encoding: User(id: 1, name: "Ada"))
/// value.json                               // {"id":1,"name":"Ada"}
/// try value.decoded(as: User.self)         // User(id: 1, name: "Ada")
/// let number: FetchValue = 42              // integer literals work too
/// ```
///
/// A `FetchValue` is itself `Codable`, so a source may answer JSON it does
/// not know the type of (the HTTP source does): recorded as a fetch's value
/// or decoded as one, it keeps its text exactly. Through another coder it
/// goes as the JSON value it holds (numbers as `Int` or `Double`).
public struct FetchValue: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The value as compact JSON text.
    public let json: String

    /// `json`, already known to be one valid JSON value.
    package init(validJSON json: String) {
        self.json = json
    }

    public init(_ integer: Int) {
        json = String(integer)
    }

    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// The JSON text `value` encodes to (keys sorted, slashes unescaped); a
    /// `FetchValue` is taken as it is.
    public init<Value: Encodable>(encoding value: Value) throws(FetchValueError) {
        if let integer = value as? Int {
            self.init(integer)
            return
        }
        if let value = value as? FetchValue {
            self = value
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            self.init(validJSON: String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            throw FetchValueError(valueType: "\(Value.self)", underlying: "\(error)")
        }
    }

    /// The value decoded from its JSON as `type`; as a `FetchValue`, itself.
    public func decoded<Value: Decodable>(as type: Value.Type = Value.self) throws(FetchValueError) -> Value {
        if Value.self == Int.self, let integer { return integer as! Value }
        if let value = self as? Value { return value }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        } catch {
            throw FetchValueError(valueType: "\(Value.self)", underlying: "\(error)")
        }
    }

    /// The value as an `Int`, when its JSON is an integer that fits one,
    /// written the way `Int` writes it: `-0` or `1.0` stay JSON, so that
    /// whatever was recorded is given back byte for byte.
    public var integer: Int? {
        // Read from the bytes: an import asks this of every value, and
        // parsing then formatting the number again cost more than the rest
        // of binding the row.
        // Its contiguous bytes (a native string's, not copied), not the
        // UTF8View's indices: a third of what encoding an imported row cost.
        var json = json
        return json.withUTF8 { bytes -> Int? in
            var utf8 = bytes[...]
            let negative = utf8.first == UInt8(ascii: "-")
            if negative { utf8 = utf8.dropFirst() }
            guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
                  first != UInt8(ascii: "0") || utf8.count == 1, !(negative && first == UInt8(ascii: "0"))
            else { return nil }
            var magnitude: UInt64 = 0
            for byte in utf8 {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                magnitude = sum
            }
            if negative { return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
        }
    }

    public var description: String { json }
}

extension FetchValue: Codable {
    /// Any JSON value, from a decoder other than the value's own: its text
    /// is the value encoded again (keys sorted).
    public init(from decoder: any Decoder) throws {
        self = try FetchValue(encoding: JSONValue(from: decoder))
    }

    /// The JSON value it holds, to an encoder other than the value's own.
    public func encode(to encoder: any Encoder) throws {
        try decoded(as: JSONValue.self).encode(to: encoder)
    }
}

/// A value could not be turned into JSON, or JSON into the value's type.
public struct FetchValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The Swift type it was encoding from or decoding to.
    public var valueType: String
    /// What the encoder or decoder said.
    public var underlying: String

    public var description: String {
        "the value is not a \(valueType) this fetch-history can read or write as JSON: \(underlying)"
    }
}
