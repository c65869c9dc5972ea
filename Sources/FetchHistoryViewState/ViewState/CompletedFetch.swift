import FetchHistoryModel
import FoundationEssentials

/// What `FetchViewState.fetch()` returns once a fetch has ended and been recorded.
public struct CompletedFetch: Hashable, Sendable {
    /// The id the history records the fetch under.
    public var id: UUID
    public var outcome: FetchOutcome
    /// When it started, on the view state's clock, since the view state was created.
    public var startOffset: Duration
    /// How long it ran, on the view state's clock.
    public var duration: Duration
}

/// The recorder refused a transition: the fetch happened (or not) but the
/// history does not show it, so the caller must not claim it was recorded.
public struct FetchRecordingError: Error, CustomStringConvertible {
    public var fetch: UUID
    public var underlying: any Error

    public var description: String {
        "could not record fetch \(fetch.lowercased): \(underlying)"
    }
}
