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
