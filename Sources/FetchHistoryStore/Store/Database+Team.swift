import FetchHistoryModel
import FoundationEssentials

// Team histories: what `push` reads from this file and how far it got.
extension Database {
    /// The fetches to push above `seq`, in `seq` order, at most `limit`:
    /// every ended one, and those left running by a recorder that is gone
    /// (pushed as interrupted). Also the sessions they belong to, the
    /// largest `seq` read, and the smallest `seq` of a fetch still running
    /// in a live process (nil when none is), which the push mark stays below.
    func fetchesToPush(after seq: Int64, limit: Int) throws -> PushBatch {
        var batch = PushBatch()
        var decoder = FetchDecoder()
        try forEachRow(HistorySQL.fetchesToPush, [.integer(seq), .integer(Int64(limit))]) { row in
            batch.fetches.append(try decoder.fetch(row))
            batch.lastSeq = row.int64(HistorySQL.afterFetchColumns)
        }
        let sessionIDs = Array(Set(batch.fetches.map(\.sessionID)))
        if !sessionIDs.isEmpty {
            let array = "[" + sessionIDs.map { "\"\($0.lowercased)\"" }.joined(separator: ",") + "]"
            batch.sessions = try rows(HistorySQL.sessionsIn, [.text(array)], HistoryRow.session)
        }
        batch.firstRunning = try firstRow(HistorySQL.firstRunningAbove, [.integer(seq)]) { $0.optionalInt64(0) } ?? nil
        return batch
    }

    /// How far this file has pushed to the destination whose `pushKey` is
    /// `key`: 0 before the first push.
    func pushMark(of key: String) throws -> Int64 {
        try scalarInt64(HistorySQL.pushMark, [.text(key)])
    }

    /// Raises the mark of `key` to `seq` (never lowers it).
    func raisePushMark(of key: String, to seq: Int64) throws {
        try execute(HistorySQL.raisePushMark, [.text(key), .integer(seq)])
    }

    /// The largest `seq` a fetch ever had (what an import numbers above).
    func largestSeq() throws -> Int64 {
        try scalarInt64(HistorySQL.largestFetchSeq)
    }
}

/// One batch of a push, as `Database.fetchesToPush(after:limit:)` reads it.
struct PushBatch: Sendable {
    var fetches: [Fetch] = []
    var sessions: [Session] = []
    /// The largest `seq` among `fetches`.
    var lastSeq: Int64 = 0
    /// The smallest `seq` above the mark of a fetch still running live.
    var firstRunning: Int64?
}

// The SQL of team histories.
extension HistorySQL {
    /// `fetchColumns`, then `seq`.
    static let fetchesToPush = """
        SELECT \(fetchColumns), seq FROM fetch
        WHERE seq > ? AND (outcome IS NOT NULL OR \(isAlive) = 0)
        ORDER BY seq LIMIT ?
        """

    static let sessionsIn = "SELECT \(sessionColumns) FROM session WHERE id IN (SELECT value FROM json_each(?))"

    static let firstRunningAbove = "SELECT min(seq) FROM fetch WHERE seq > ? AND outcome IS NULL AND \(isAlive) = 1"

    static let pushMark = "SELECT coalesce((SELECT seq FROM push_mark WHERE history_id = ?), 0)"

    static let raisePushMark = """
        INSERT INTO push_mark (history_id, seq) VALUES (?, ?)
        ON CONFLICT (history_id) DO UPDATE SET seq = max(seq, excluded.seq)
        """
}
