/// Thrown by `withTimeout` when the operation took longer than its limit.
public struct TimeoutError: Error, Equatable, Sendable, CustomStringConvertible {
    public var limit: Duration

    public init(limit: Duration) {
        self.limit = limit
    }

    public var description: String { "timed out after \(limit)" }
}
