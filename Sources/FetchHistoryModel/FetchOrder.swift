/// The order a listing gives fetches in (`list --sort`).
public enum FetchOrder: String, CaseIterable, Hashable, Sendable {
    /// Newest first; fetches started in one millisecond in reverse
    /// recording order.
    case newestFirst
    /// Longest first; of equal durations, newest first. Fetches with no
    /// duration (running, interrupted) come after every other, newest first.
    case longestFirst
}
