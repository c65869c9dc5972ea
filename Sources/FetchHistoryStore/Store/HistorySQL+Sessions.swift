import FetchHistoryModel

// The SQL of `sessions`.
extension HistorySQL {
    /// Sessions newest first (of several started in one millisecond, the
    /// one recorded last first), at most `?` (-1: all).
    static let newestSessions = "SELECT \(sessionColumns) FROM session ORDER BY started_at DESC, rowid DESC LIMIT ?"

    /// One session's fetches per stored outcome (NULL: not ended), read
    /// through `fetch_by_session`.
    static let sessionOutcomes = "SELECT outcome, count(*) FROM fetch WHERE session_id = ? GROUP BY outcome"
}
