import FoundationEssentials

/// One recorded fetch, as read back from the history.
public struct Fetch: Hashable, Sendable, Identifiable {
    public var id: UUID
    public var sessionID: UUID
    /// What answered, e.g. `random` or a (redacted) URL.
    public var source: String
    public var startedAt: Timestamp
    /// Nil while running, and for an interrupted fetch.
    public var endedAt: Timestamp?
    /// Measured on the recording clock; nil when `endedAt` is nil.
    public var durationMilliseconds: Int64?
    /// Nil while the fetch is running.
    public var outcome: FetchOutcome?
    /// The HTTP status and body size, for fetches from the HTTP source.
    public var response: SourceResponse?
    /// What the user and the source did, for replay; nil for fetches
    /// recorded before scripts were kept.
    public var script: FetchScript?
    /// The host that recorded it (its session's): the machine's host name,
    /// or empty for a fetch imported from an export that did not say.
    public var host: String

    // Inlinable: called from the store's reading loop in another module,
    // the init made each fetch in a buffer of its own, then copied it out.
    @inlinable
    public init(
        id: UUID, sessionID: UUID, source: String, startedAt: Timestamp,
        endedAt: Timestamp? = nil, durationMilliseconds: Int64? = nil, outcome: FetchOutcome? = nil,
        response: SourceResponse? = nil, script: FetchScript? = nil, host: String = ""
    ) {
        self.host = host
        self.response = response
        self.script = script
        self.id = id
        self.sessionID = sessionID
        self.source = source
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.durationMilliseconds = durationMilliseconds
        self.outcome = outcome
    }

    public var status: FetchStatus { outcome?.status ?? .running }

    /// The value the source answered, if it succeeded.
    public var value: FetchValue? {
        if case .succeeded(let value) = outcome { value } else { nil }
    }

    /// The failure message, if it failed.
    public var errorMessage: String? {
        if case .failed(let message) = outcome { message } else { nil }
    }

    /// Why it was cancelled, if it was.
    public var cancelReason: CancelReason? {
        if case .cancelled(let reason) = outcome { reason } else { nil }
    }
}
