import FetchHistoryModel
import FetchHistoryViewState

/// What a replay gives the view state it drives: build your
/// `FetchViewState` from these, and it replays a recorded session.
///
/// ```swift
/// let report = try await replay.run(as: User.self) { replay in
///     FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, text: .profile, fetch: replay.fetch)
/// }
/// ```
public struct ReplayEnvironment<Value: Decodable & Sendable>: Sendable {
    /// Collects what the replayed view state reports, to compare.
    public let recorder: any FetchRecorder
    /// The replay's virtual clock, moved to each recorded moment.
    public let clock: ManualClock
    /// The recorded fetches' timeout.
    public let timeout: Duration?
    /// Answers the n-th call with what the recording's n-th fetch was
    /// answered, at the recorded moment.
    public let fetch: @Sendable () async throws -> Value
}
