/// How far a follower has read the history (`list --follow`): the point
/// from which `HistoryReader.fetchesEnded(after:matching:)` gives each
/// fetch that ends later exactly once. Each history says where it stands in
/// its own terms; a cursor is only ever given back to the history it came from.
///
/// ```swift
/// var cursor = try await history.listing(matching: .all, limit: 20).cursor
/// // … after the history changed:
/// let ended = try await history.fetchesEnded(after: &cursor, matching: filter)
/// ```
public struct HistoryCursor: Hashable, Sendable {
    /// Where the reading stands.
    package enum Position: Hashable, Sendable {
        /// In a SQLite file: the largest `seq` seen (0 for an empty history),
        /// and the `seq` of the fetches seen without an outcome. Fetches are
        /// told apart by `seq`, the order rows are written in (new fetches and
        /// imported ones alike get a larger one), so a fetch recorded after
        /// the cursor was taken is found however far in the past it started.
        /// An interrupted fetch stays in `running` for good: there are few,
        /// and each costs one lookup.
        case written(lastSeq: Int64, running: Set<Int64>)
        /// On a PostgreSQL server, which holds only ended fetches: the
        /// snapshot (`pg_snapshot` text) of the last read; a row whose
        /// transaction it did not see is new.
        case snapshot(String)
    }

    package var position: Position

    package init(_ position: Position) {
        self.position = position
    }
}
