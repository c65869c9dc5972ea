import FetchHistoryModel

// Completion: what a shell offers after `show`, `replay`, `--session` and
// `--source` (the commands' `CompletionKind`s). Each query reads at most
// `limit` rows through an index, whatever the history's size: it runs on
// every Tab.
extension Database {
    /// The newest fetches whose id starts with `prefix` (any fetch when it
    /// is empty), newest first, at most `limit`; none when `prefix` cannot
    /// start an id.
    public func fetches(idStartingWith prefix: String, limit: Int) throws -> [Fetch] {
        guard !prefix.isEmpty else {
            return try fetches(limit: limit)
        }
        guard let (low, high) = try? HistorySQL.idRange(prefix) else { return [] }
        return try rows(HistorySQL.newestFetchesInIDRange, [.text(low), .text(high), .integer(Int64(limit))], HistoryRow.fetch)
    }

    /// The newest sessions whose id starts with `prefix` (any session when
    /// it is empty), newest first, at most `limit`; none when `prefix`
    /// cannot start an id.
    public func sessions(idStartingWith prefix: String, limit: Int) throws -> [Session] {
        guard !prefix.isEmpty else {
            return try rows(HistorySQL.newestSessions(""), [.integer(Int64(limit))], HistoryRow.session)
        }
        guard let (low, high) = try? HistorySQL.idRange(prefix) else { return [] }
        // Sessions are few (one per run): no plan to guard.
        return try rows(HistorySQL.newestSessions(" WHERE id >= ? AND id < ?"), [.text(low), .text(high), .integer(Int64(limit))], HistoryRow.session)
    }

    /// The distinct sources that start with `prefix`, in byte order, at most
    /// `limit`: one seek in `fetch_by_source` each, as `sources(matching:)`
    /// walks them, however many fetches each source has. A source recorded
    /// with its user info hidden (`http://***@h/n`) is offered without it,
    /// as `--source` finds it (`SourceMatch`).
    public func sources(startingWith prefix: String, limit: Int) throws -> [String] {
        var found: Set<String> = []
        for start in SourceMatch.withHiddenUserInfo(prefix) {
            var walked = 0
            var next = try firstRow(HistorySQL.firstSourceFrom, [.text(start)]) { $0.text(0) }
            while let source = next, walked < limit, source.utf8.starts(with: start.utf8) {
                let offered = SourceMatch.withoutHiddenUserInfo(source)
                if offered.utf8.starts(with: prefix.utf8) { found.insert(offered) }
                walked += 1
                next = try firstRow(HistorySQL.firstSourceAfter, [.text(source)]) { $0.text(0) }
            }
        }
        return Array(found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(limit))
    }
}


// The SQL of completion.
extension HistorySQL {
    /// Through the `id` index, then sorted: the range holds the fetches that
    /// match and no other, so a longer prefix reads fewer rows. The `+`
    /// keeps `fetch_by_start` out of the plan whatever the statistics say:
    /// walking it newest first would read every newer fetch to find the few
    /// with a long prefix.
    static let newestFetchesInIDRange = """
        SELECT \(fetchColumns) FROM fetch WHERE id >= ? AND id < ? ORDER BY +started_at DESC, seq DESC LIMIT ?
        """
}
