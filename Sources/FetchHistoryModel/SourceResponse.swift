/// What a source said about an answer besides the number: for the HTTP
/// source, the status code and the body's size, and for an answer that
/// failed, the start of its body. Recorded with the fetch.
public struct SourceResponse: Hashable, Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The body's size in bytes (as far as it was read, for an oversize body).
    public var bytes: Int
    /// The start of the body and its Content-Type, secrets hidden, for an
    /// answer that failed (a status outside 2xx, a body that is no value);
    /// nil for one that succeeded, which records only its value.
    public var body: ResponseBody?

    public init(status: Int, bytes: Int) {
        self.status = status
        self.bytes = bytes
    }

    public init(status: Int, bytes: Int, body: ResponseBody?) {
        self.status = status
        self.bytes = bytes
        self.body = body
    }
}

/// A value and what came with it.
public struct SourceAnswer<Value: Sendable>: Sendable {
    public var value: Value
    public var response: SourceResponse?

    public init(value: Value, response: SourceResponse? = nil) {
        self.value = value
        self.response = response
    }
}

/// An error that carries the response it failed on (a 503, a body that
/// is not a number), so the history keeps its status and size.
public protocol SourceResponseError: Error {
    var response: SourceResponse? { get }
}

extension SourceAnswer: Equatable where Value: Equatable {}
extension SourceAnswer: Hashable where Value: Hashable {}
