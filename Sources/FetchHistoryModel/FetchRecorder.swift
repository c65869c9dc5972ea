import FoundationEssentials

/// A fetch was tapped. Offsets are on the view state's clock, since the
/// view state was created.
public struct FetchStart: Hashable, Sendable {
    public var id: UUID
    /// When the fetch was tapped.
    public var offset: Duration
    /// The deadline the view state gives it, if any.
    public var timeout: Duration?

    public init(id: UUID, offset: Duration, timeout: Duration? = nil) {
        self.id = id
        self.offset = offset
        self.timeout = timeout
    }
}

/// A fetch ended.
public struct FetchEnd: Hashable, Sendable {
    /// What ended it: the source, or an action of the user or the view state.
    public enum Cause: Hashable, Sendable {
        /// The source answered this value.
        case answer(FetchValue)
        /// The source failed with this message.
        case failure(String)
        /// Cancel was tapped (or Ctrl-C, or the caller's task was cancelled).
        case cancelTap
        /// A newer fetch was tapped.
        case fetchTap
        /// The timeout fired.
        case timeout
    }

    public var id: UUID
    /// When it ended: the moment of its cause.
    public var offset: Duration
    /// How long it ran, on the clock.
    public var duration: Duration
    public var outcome: FetchOutcome
    public var cause: Cause
    /// What an HTTP source said (status, size), if anything.
    public var response: SourceResponse?

    public init(
        id: UUID, offset: Duration, duration: Duration, outcome: FetchOutcome, cause: Cause,
        response: SourceResponse? = nil
    ) {
        self.id = id
        self.offset = offset
        self.duration = duration
        self.outcome = outcome
        self.cause = cause
        self.response = response
    }
}

/// Where a view state reports each fetch's transitions, as they happen.
///
/// `HistoryRecorder` writes them to a `HistoryStore`; tests may pass a spy.
public protocol FetchRecorder: Sendable {
    /// A fetch started; called before the source is asked.
    func record(_ start: FetchStart) async throws
    /// A fetch ended.
    func record(_ end: FetchEnd) async throws
    /// What the fetches are of and where they are recorded, for the spans
    /// the view state gives a tracer; none by default.
    var labels: RecordingLabels { get }
}

extension FetchRecorder {
    public var labels: RecordingLabels { RecordingLabels() }
}

/// What a recorder knows of the fetches it records: the source (a span's
/// name), the session and the host. `HistoryRecorder` gives its session's.
public struct RecordingLabels: Hashable, Sendable {
    /// The source, as the history names it (a URL with its secrets hidden).
    public var source: String?
    /// The session the fetches are recorded in.
    public var sessionID: UUID?
    /// The host the fetches run on.
    public var host: String?

    public init(source: String? = nil, sessionID: UUID? = nil, host: String? = nil) {
        self.source = source
        self.sessionID = sessionID
        self.host = host
    }
}
