/// What the user and the source did during one fetch, recorded apart from
/// its outcome: the script `SessionReplay` re-drives through the view state.
///
/// Fetches recorded before fetch-history kept scripts have none, and cannot
/// be replayed.
public struct FetchScript: Hashable, Sendable {
    /// When fetch was tapped.
    public var tappedAt: Timestamp
    /// The view state's timeout for the fetch, in ms.
    public var timeoutMilliseconds: Int64?
    /// What ended the fetch and when; nil while running or interrupted.
    public var end: End?

    public struct End: Hashable, Sendable {
        public var cause: FetchEnd.Cause
        public var at: Timestamp

        public init(cause: FetchEnd.Cause, at: Timestamp) {
            self.cause = cause
            self.at = at
        }
    }

    public init(tappedAt: Timestamp, timeoutMilliseconds: Int64? = nil, end: End? = nil) {
        self.tappedAt = tappedAt
        self.timeoutMilliseconds = timeoutMilliseconds
        self.end = end
    }
}

extension FetchEnd.Cause {
    /// The name stored in `fetch.ended_by` and exported as `endedBy`.
    public var name: String {
        switch self {
        case .answer: "answer"
        case .failure: "failure"
        case .cancelTap: "cancel"
        case .fetchTap: "fetch"
        case .timeout: "timeout"
        }
    }

    /// The cause named `name`, with the answer it needs.
    public init?(name: String, value: FetchValue?, error: String?) {
        switch name {
        case "answer": guard let value else { return nil }; self = .answer(value)
        case "failure": guard let error else { return nil }; self = .failure(error)
        case "cancel": self = .cancelTap
        case "fetch": self = .fetchTap
        case "timeout": self = .timeout
        default: return nil
        }
    }

    /// The value it answered, for an answer (`answerValue` in an export).
    public var answerValue: FetchValue? {
        if case .answer(let value) = self { value } else { nil }
    }

    /// The source's message, for a failure (`answerError` in an export).
    public var answerError: String? {
        if case .failure(let message) = self { message } else { nil }
    }
}
