import FoundationEssentials

/// Which fetches `Database.deleteFetches(_:)` deletes. Whatever the rule,
/// a fetch still running in a live process is never deleted.
///
/// ```swift
/// let week = Timestamp.now.advanced(by: .seconds(-7 * 86_400))
/// let summary = try store.write { db in try db.deleteFetches(.startedBefore(week)) }
/// ```
public enum RetentionRule: Hashable, Sendable {
    /// The fetches started before this moment.
    case startedBefore(Timestamp)
    /// All but the newest `n` fetches, in the order `list` shows them
    /// (newest first; of several started in one millisecond, the one
    /// recorded last first).
    case keepingNewest(Int)
    /// These fetches, every one of which must exist and may be deleted:
    /// all or none.
    case fetches([UUID])

    /// The rule with the newest fetches it keeps found: a condition SQLite can check row by row.
    package enum Resolved {
        case startedBefore(Timestamp)
        /// Older than the fetch started at `startedAt` with this `seq`, in `list`'s order.
        case olderThan(startedAt: Int64, seq: Int64)
        case every
        case nothing
        case ids([UUID])
    }
}
