/// How far a follower has read the history (`list --follow`): the last
/// fetch written when it last looked, and the fetches that were still
/// running then, whose end it is waiting for.
///
/// Fetches are told apart by `seq`, the order rows are written in (new
/// fetches and imported ones alike get a larger one), so a fetch recorded
/// after the cursor was taken is found however far in the past it started.
///
/// ```swift
/// var cursor = try store.read { db in try db.cursor() }
/// // … after the history changed:
/// let ended = try store.read { db in try db.fetchesEnded(after: &cursor, matching: filter) }
/// ```
public struct HistoryCursor: Hashable, Sendable {
    /// The largest `seq` seen; 0 for an empty history.
    package var lastSeq: Int64
    /// The `seq` of fetches seen without an outcome. An interrupted fetch
    /// stays here for good: there are few, and each costs one lookup.
    package var running: Set<Int64>

    package init(lastSeq: Int64, running: Set<Int64>) {
        self.lastSeq = lastSeq
        self.running = running
    }
}
