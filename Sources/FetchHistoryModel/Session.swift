import FoundationEssentials

/// The fetches of one run: one CLI invocation, one screen's lifetime.
public struct Session: Hashable, Sendable, Identifiable {
    public var id: UUID
    public var startedAt: Timestamp
    /// The source its fetches ask, e.g. `random`.
    public var source: String
    /// The process that recorded it, to tell a running fetch from one whose
    /// process died.
    public var process: ProcessIdentity

    public init(id: UUID = .timeOrdered(), startedAt: Timestamp, source: String, process: ProcessIdentity) {
        self.id = id
        self.startedAt = startedAt
        self.source = source
        self.process = process
    }
}
