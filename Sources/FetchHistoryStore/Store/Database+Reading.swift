import CSQLite
import FetchHistoryModel
import FoundationEssentials

// Reading: the queries behind `list`, `show`, `export` and replay,
// each call inside a `HistoryStore.read`.
extension Database {
    /// Fetches matching `filter`, in `order` (`FetchOrder`), newest first
    /// by default; at most `limit` when given. Fetches started in the same
    /// millisecond come in reverse recording order.
    public func fetches(matching filter: HistoryFilter = .all, order: FetchOrder = .newestFirst, limit: Int? = nil) throws -> [Fetch] {
        let (sql, values) = HistorySQL.ordered(try resolvingSources(filter), order, limit: limit)
        var decoder = FetchDecoder()
        return try rows(sql, values) { try decoder.fetch($0) }
    }

    /// The plan SQLite chooses for `fetches(matching:)`, one line per step:
    /// lets tests prove a listing is served by an index.
    func queryPlan(forFetchesMatching filter: HistoryFilter) throws -> [String] {
        let (sql, values) = HistorySQL.newestFirst(filter, limit: 20)
        return try rows("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) }
    }

    /// Calls `body` with each fetch matching `filter`, oldest first (ties in
    /// recording order, which an import keeps), reading one row at a time so
    /// memory stays flat for any history size.
    public func forEachFetch(matching filter: HistoryFilter = .all, _ body: (Fetch) throws -> Void) throws {
        let (sql, values) = HistorySQL.oldestFirst(try resolvingSources(filter))
        var decoder = FetchDecoder()
        try forEachRow(sql, values) { row in try body(decoder.fetch(row)) }
    }

    /// The fetch whose id is `prefix` or starts with it.
    public func fetch(idPrefix prefix: String) throws -> Fetch {
        let (low, high) = try HistorySQL.idRange(prefix)
        let matches = try rows(HistorySQL.fetchByIDRange, [.text(low), .text(high)], HistoryRow.fetch)
        return try Self.unique(matches, kind: "fetch", prefix: prefix)
    }

    /// The fetch with `id`, or nil: for a program that has the id, as
    /// `fetch` reading back each fetch it records; people type prefixes.
    public func fetch(id: UUID) throws -> Fetch? {
        try firstRow(HistorySQL.fetchByID, [.text(id.lowercased)], HistoryRow.fetch)
    }

    /// The session whose id is `prefix` or starts with it.
    public func session(idPrefix prefix: String) throws -> Session {
        let (low, high) = try HistorySQL.idRange(prefix)
        let matches = try rows(HistorySQL.sessionByIDRange, [.text(low), .text(high)], HistoryRow.session)
        return try Self.unique(matches, kind: "session", prefix: prefix)
    }

    /// The fetches whose 8-character short id ends with `end`, newest first.
    public func fetches(shortIDEndingWith end: String, limit: Int) throws -> [Fetch] {
        let end = try IDPrefixError.validated(end)
        var decoder = FetchDecoder()
        return try rows(HistorySQL.fetchesByShortIDEnd, Self.shortIDEndValues(end, limit: limit)) { try decoder.fetch($0) }
    }

    /// The sessions whose 8-character short id ends with `end`, newest first.
    public func sessions(shortIDEndingWith end: String, limit: Int) throws -> [Session] {
        let end = try IDPrefixError.validated(end)
        return try rows(HistorySQL.sessionsByShortIDEnd, Self.shortIDEndValues(end, limit: limit), HistoryRow.session)
    }

    /// The session `text` names, as a person types an id (`IDArgument`).
    public func session(named text: String) throws -> Session {
        if case .shortIDEnd(let end) = try IDArgument(text),
           let session = try IDArgument.pick(try sessions(shortIDEndingWith: end, limit: IDArgument.candidateLimit), kind: "session", text: text) {
            return session
        }
        return try session(idPrefix: text)
    }

    private static func shortIDEndValues(_ end: String, limit: Int) -> [SQLValue] {
        let length = Int64(end.count)
        return [.integer(Int64(IDArgument.shortIDLength) + 1 - length), .integer(length), .text(end), .integer(Int64(limit))]
    }

    /// The session started last (of several in one millisecond, the one
    /// recorded last), or nil for an empty history.
    public func newestSession() throws -> Session? {
        try firstRow(HistorySQL.newestSession, [], HistoryRow.session)
    }

    /// The session with `id`, or nil.
    public func session(id: UUID) throws -> Session? {
        try firstRow(HistorySQL.sessionByID, [.text(id.lowercased)], HistoryRow.session)
    }

    private static func unique<T: Identifiable>(
        _ matches: [T], kind: String, prefix: String
    ) throws(HistoryError) -> T where T.ID == UUID {
        guard let first = matches.first else { throw .notFound(kind: kind, prefix: prefix) }
        guard matches.count == 1 else {
            throw .ambiguous(kind: kind, prefix: prefix, candidates: matches.map(\.id.lowercased))
        }
        return first
    }

    /// Every text value in every table, joined: lets tests prove a secret
    /// was never written anywhere.
    func allText() throws -> String {
        let tables = try rows(HistorySQL.tableNames) { $0.text(0) }
        var text: [String] = []
        for table in tables {
            try forEachRow(HistorySQL.everyRow(of: table)) { row in
                for column in 0..<sqlite3_column_count(row.handle) { text.append(row.optionalText(column) ?? "") }
            }
        }
        return text.joined(separator: "\n")
    }
}


// The SQL of reading.
extension HistorySQL {
    static let fetchByIDRange = "SELECT \(fetchColumns) FROM fetch WHERE id >= ? AND id < ? ORDER BY id LIMIT 3"

    static let sessionByIDRange = "SELECT \(sessionColumns) FROM session WHERE id >= ? AND id < ? ORDER BY id LIMIT 3"
    /// A scan of the id index (the condition cannot seek): a person's lookup, not a hot path.
    static let fetchesByShortIDEnd =
        "SELECT \(fetchColumns) FROM fetch WHERE substr(id, ?, ?) = ? ORDER BY started_at DESC, seq DESC LIMIT ?"
    static let sessionsByShortIDEnd =
        "SELECT \(sessionColumns) FROM session WHERE substr(id, ?, ?) = ? ORDER BY started_at DESC, rowid DESC LIMIT ?"
    static let fetchByID = "SELECT \(fetchColumns) FROM fetch WHERE id = ?"
    static let sessionByID = "SELECT \(sessionColumns) FROM session WHERE id = ?"
    static let newestSession = "SELECT \(sessionColumns) FROM session ORDER BY started_at DESC, rowid DESC LIMIT 1"

    static let tableNames = "SELECT name FROM sqlite_schema WHERE type = 'table'"

    /// Every row of `table`, a name read from `sqlite_schema` itself, never from input.
    static func everyRow(of table: String) -> String {
        "SELECT * FROM \"\(table)\""
    }

    static func oldestFirst(_ filter: HistoryFilter) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        return ("SELECT \(fetchColumns) FROM fetch\(conditions) ORDER BY started_at, seq", values)
    }

    static func newestFirst(_ filter: HistoryFilter, limit: Int?) -> (String, [SQLValue]) {
        ordered(filter, .newestFirst, limit: limit)
    }

    /// The fetches matching `filter` in `order`. Longest first reads every
    /// matching row (no index holds every duration) and sorts them: fetches
    /// with no duration last.
    static func ordered(_ filter: HistoryFilter, _ order: FetchOrder, limit: Int?) -> (String, [SQLValue]) {
        let (conditions, values) = conditions(for: filter)
        let orderBy = switch order {
        case .newestFirst: "started_at DESC, seq DESC"
        case .longestFirst: "duration_ms IS NULL, duration_ms DESC, started_at DESC, seq DESC"
        }
        return ("SELECT \(fetchColumns) FROM fetch\(conditions) ORDER BY \(orderBy) LIMIT ?", values + [.integer(Int64(limit ?? -1))])
    }

    /// The bounds of the ids starting with `prefix`: every id is lower-case
    /// hexadecimal and dashes, all below "~".
    static func idRange(_ text: String) throws(HistoryError) -> (String, String) {
        let prefix: String
        do {
            prefix = try IDPrefixError.validated(text)
        } catch {
            guard case .invalid(let shown) = error else { throw .invalidID(text) }
            throw .invalidID(shown)
        }
        return (prefix, prefix + "~")
    }

}
