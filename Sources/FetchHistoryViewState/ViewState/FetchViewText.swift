import FetchHistoryModel
import FoundationEssentials

/// What a `FetchViewState` tells the user, in words an app can replace:
/// its language, its tone.
///
/// ```swift
/// var text = FetchViewText.english
/// text.notFetched = "Tap to load"
/// text.failure = { _ in "Something went wrong" }
/// let viewState = FetchViewState(recorder: recorder, text: text) { try await api.user(id: 7) }
/// ```
public struct FetchViewText: Sendable {
    /// Shown before the first value, and after a fetch that cleared it.
    public var notFetched: String
    /// The error shown when the user (or a newer fetch) cancelled.
    public var cancelled: String
    /// The error shown when a fetch timed out, given its timeout.
    public var timedOut: @Sendable (Duration) -> String
    /// The error shown for a fetch whose process died.
    public var interrupted: String
    /// The error shown when the source failed; also what the history records.
    public var failure: @Sendable (any Error) -> String

    public init(
        notFetched: String, cancelled: String, timedOut: @escaping @Sendable (Duration) -> String,
        interrupted: String, failure: @escaping @Sendable (any Error) -> String
    ) {
        self.notFetched = notFetched
        self.cancelled = cancelled
        self.timedOut = timedOut
        self.interrupted = interrupted
        self.failure = failure
    }

    /// The built-in English text.
    public static let english = FetchViewText(
        notFetched: "Not fetched yet",
        cancelled: "Fetch cancelled",
        timedOut: { "Fetch timed out after \(Self.format($0))" },
        interrupted: "Fetch interrupted",
        failure: { error in (error as? any LocalizedError)?.errorDescription ?? String(describing: error) }
    )

    /// `2s`, `250ms`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
