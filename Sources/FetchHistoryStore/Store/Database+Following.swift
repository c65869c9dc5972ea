import FetchHistoryModel
import FoundationEssentials

// Following: what `list --follow` reads each time the history changes.
extension Database {
    /// Where the history is now: every fetch written so far counts as seen,
    /// and the running ones are remembered, to be reported when they end.
    public func cursor() throws -> HistoryCursor {
        let lastSeq = try scalarInt64(HistorySQL.largestFetchSeqOrZero)
        let running = try rows(HistorySQL.runningFetchSeqs) { $0.int64(0) }
        return HistoryCursor(.written(lastSeq: lastSeq, running: Set(running)))
    }

    /// The fetches that ended since `cursor` was taken or last moved (newly
    /// written ones that have an outcome, and remembered running ones that
    /// now have one) and that match `filter`, oldest first; moves `cursor`
    /// past them. A fetch written while running is remembered, and returned
    /// by a later call once it has ended.
    public func fetchesEnded(after cursor: inout HistoryCursor, matching filter: HistoryFilter) throws -> [Fetch] {
        guard case .written(var lastSeq, var running) = cursor.position else { throw HistoryError.foreignCursor(path: path) }
        var ended: [Int64] = []
        try forEachRow(HistorySQL.fetchesWrittenOrWatched, [.integer(lastSeq), .text(Self.jsonArray(running))]) { row in
            let seq = row.int64(0)
            lastSeq = max(lastSeq, seq)
            if row.isNull(1) {
                running.insert(seq)
            } else {
                running.remove(seq)
                ended.append(seq)
            }
        }
        cursor = HistoryCursor(.written(lastSeq: lastSeq, running: running))
        guard !ended.isEmpty else { return [] }
        let (sql, values) = HistorySQL.fetchesBySeq(filter)
        return try rows(sql, values + [.text(Self.jsonArray(ended))], HistoryRow.fetch)
    }

    /// Integers as a JSON array, the one value `json_each` reads a list from.
    private static func jsonArray(_ numbers: some Sequence<Int64>) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
}


// The SQL of following.
extension HistorySQL {
    // Following (`list --follow`): fetches are found by `seq`, the rowid.
    static let largestFetchSeqOrZero = "SELECT coalesce(max(seq), 0) FROM fetch"
    static let runningFetchSeqs = "SELECT seq FROM fetch WHERE outcome IS NULL"

    /// The fetches written after `seq` ?1, and those in the JSON array ?2
    /// (the ones seen running): each `seq` and its outcome. The two parts
    /// never overlap: every watched `seq` is at most ?1.
    static let fetchesWrittenOrWatched = """
        SELECT seq, outcome FROM fetch WHERE seq > ?
        UNION ALL
        SELECT seq, outcome FROM fetch WHERE seq IN (SELECT value FROM json_each(?))
        """

    /// The fetches matching `filter` among those whose `seq` is in a JSON
    /// array (bound last), oldest first.
    static func fetchesBySeq(_ filter: HistoryFilter) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        return (
            "SELECT \(fetchColumns) FROM fetch\(and(conditions, "seq IN (SELECT value FROM json_each(?))")) ORDER BY started_at, seq",
            values
        )
    }
}
