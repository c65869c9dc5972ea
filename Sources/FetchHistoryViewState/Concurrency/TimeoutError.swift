import FetchHistoryModel

/// Thrown by `withTimeout` when the operation took longer than its limit.
public struct TimeoutError: Error, Equatable, Sendable, CustomStringConvertible {
    public var limit: Duration

    /// The bound `withTimeout` and the test kit's waits use unless told
    /// otherwise: far above any step that works (milliseconds), so a test
    /// fails on a hang and not on a busy machine. `swift test` runs every
    /// test at once on a pool of one thread per core, and each await queues
    /// behind all the others: on a loaded two-core CI machine a 20-fetch
    /// loop that takes 40 ms alone waited more than 5 s, the old bound.
    public static let defaultLimit: Duration = .seconds(30)

    public init(limit: Duration) {
        self.limit = limit
    }

    public var description: String { "timed out after \(limit)" }
}
