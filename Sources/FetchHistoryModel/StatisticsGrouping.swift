/// What `stats --by` breaks the fetches down by.
public enum StatisticsGrouping: String, CaseIterable, Hashable, Sendable {
    /// The source, e.g. `random`.
    case source
    /// The fetch's status: succeeded, failed, …, running.
    case outcome
    /// The local calendar day the fetch started, `2026-11-22`.
    case day
    /// The local hour the fetch started, `2026-11-22 14:00`.
    case hour
    /// The host that recorded the fetch.
    case host
}
