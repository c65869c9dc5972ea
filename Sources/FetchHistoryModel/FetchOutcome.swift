/// How a fetch ended.
public enum FetchOutcome: Hashable, Sendable {
    /// The source answered with this value.
    case succeeded(FetchValue)
    /// The source failed; the message is what the screen showed.
    case failed(String)
    /// The fetch was cancelled before the source answered.
    case cancelled(CancelReason)
    /// The view state's timeout elapsed first. Its own outcome rather than a
    /// cancel reason: users filter and count it separately from cancels.
    case timedOut
    /// The process recording the fetch died before the fetch ended.
    case interrupted

    /// The outcome's name as shown and stored: `timed-out` for `.timedOut`.
    public var status: FetchStatus {
        switch self {
        case .succeeded: .succeeded
        case .failed: .failed
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
    }
}

/// Why a fetch was cancelled.
public enum CancelReason: String, CaseIterable, Hashable, Sendable {
    /// The user cancelled it (the cancel button, Ctrl-C).
    case user
    /// A newer fetch replaced it.
    case superseded
    /// The program was told to stop while the fetch ran: SIGTERM (a
    /// shutdown, `systemctl stop`, a CI job's time limit), or an app being
    /// terminated. Nobody pressed cancel, and the source did not fail.
    case terminated
}

/// A fetch's state in one word, as `list`, filters and exports spell it.
public enum FetchStatus: String, CaseIterable, Hashable, Sendable {
    /// Started, not ended, and its process is still alive.
    case running
    case succeeded
    case failed
    case cancelled
    case timedOut = "timed-out"
    case interrupted
}
