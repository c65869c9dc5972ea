import FetchHistoryModel
import FoundationEssentials

// Live replays: sessions that re-ran another one against the real source.
extension Database {
    /// Marks `session` as the live re-run of `original`, so that it is never
    /// taken for a session the user recorded (`newestRecordedSession`).
    public func markLiveReplay(_ session: UUID, of original: UUID) throws {
        try execute(HistorySQL.markLiveReplay, [.text(session.lowercased), .text(original.lowercased)])
    }

    /// The session started last that is not a live replay's own, or nil
    /// when there is none.
    public func newestRecordedSession() throws -> Session? {
        try firstRow(HistorySQL.newestRecordedSession, [], HistoryRow.session)
    }
}

// The SQL of live replays' marks (Migrations/0006_record_live_replays.sql).
extension HistorySQL {
    static let markLiveReplay = "INSERT INTO live_replay (session_id, replay_of) VALUES (?, ?)"

    /// The newest session that no `replay --live` recorded (ties as in `newestSession`).
    static let newestRecordedSession = """
        SELECT \(sessionColumns) FROM session WHERE id NOT IN (SELECT session_id FROM live_replay)
        ORDER BY started_at DESC, rowid DESC LIMIT 1
        """
}
