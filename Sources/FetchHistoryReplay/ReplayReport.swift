import FetchHistoryModel
import FetchHistoryViewState

/// What a replay did and whether it reproduced the recording.
public struct ReplayReport: Hashable, Sendable {
    /// One line of the timeline: an action or answer, and the screen after it.
    public struct Step: Hashable, Sendable {
        /// Since the session started.
        public var offset: Duration
        /// What happened, e.g. `fetch 2 tapped`, `fetch 1 answered 42`.
        public var event: String
        public var isProcessing: Bool
        /// The value shown, as JSON, or the view state's "not fetched" text.
        public var valueLabel: String
        public var error: String?
    }

    public var steps: [Step]
    /// The first differences between the recording and the replay, readable;
    /// empty when the replay reproduced it.
    public var differences: [String]
    /// How many fetches were compared.
    public var fetchCount: Int
    /// Set when the recording ends in an interrupted (or still running)
    /// fetch: the replay stops there and says so.
    public var stoppedAt: String?

    public var matches: Bool { differences.isEmpty }
}
