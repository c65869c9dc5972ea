import FetchHistoryModel

// The SQL of live replays' marks (Migrations/0006_record_live_replays.sql).
extension HistorySQL {
    static let markLiveReplay = "INSERT INTO live_replay (session_id, replay_of) VALUES (?, ?)"

    /// The newest session that no `replay --live` recorded (ties as in `newestSession`).
    static let newestRecordedSession = """
        SELECT \(sessionColumns) FROM session WHERE id NOT IN (SELECT session_id FROM live_replay)
        ORDER BY started_at DESC, rowid DESC LIMIT 1
        """
}
