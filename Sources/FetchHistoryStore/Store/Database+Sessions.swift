import FetchHistoryModel

// Sessions: the runs that recorded fetches, for `sessions`.
extension Database {
    /// Sessions matching `filter`, newest first, at most `limit` when given,
    /// each with its fetches counted per status. A fetch that has not ended
    /// is running while its session's recorder is alive, else interrupted.
    ///
    /// ```swift
    /// let latest = try store.read { db in try db.sessionSummaries(limit: 1) }.first
    /// ```
    public func sessionSummaries(matching filter: SessionFilter = .all, limit: Int? = nil) throws -> [SessionSummary] {
        let (conditions, values) = HistorySQL.conditions(for: filter)
        let sessions = try rows(HistorySQL.newestSessions(conditions), values + [.integer(Int64(limit ?? -1))], HistoryRow.session)
        return try sessions.map { session in
            var counts: [FetchStatus: Int] = [:]
            // The recorder is asked once per session, and only if one of its fetches has not ended.
            var unended = 0
            try forEachRow(HistorySQL.sessionOutcomes, [.text(session.id.lowercased)]) { row in
                guard let outcome = row.optionalText(0) else {
                    unended = Int(row.int64(1))
                    return
                }
                counts[HistoryRow.status(outcome: outcome, isAlive: nil), default: 0] += Int(row.int64(1))
            }
            if unended > 0 { counts[session.process.isAlive ? .running : .interrupted, default: 0] += unended }
            return SessionSummary(session: session, counts: counts)
        }
    }
}

// The SQL of `sessions`.
extension HistorySQL {
    /// Sessions meeting `conditions`, newest first (of several started in
    /// one millisecond, the one recorded last first), at most `?` (-1: all).
    static func newestSessions(_ conditions: String) -> String {
        "SELECT \(sessionColumns) FROM session\(conditions) ORDER BY started_at DESC, rowid DESC LIMIT ?"
    }

    /// One session's fetches per stored outcome (NULL: not ended), read
    /// through `fetch_by_session`.
    static let sessionOutcomes = "SELECT outcome, count(*) FROM fetch WHERE session_id = ? GROUP BY outcome"
}
