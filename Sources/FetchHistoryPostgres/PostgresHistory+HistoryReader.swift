import FetchHistoryModel
import Foundation
import PostgresNIO

// Reading: the seam's reads, each one statement or one read-only
// transaction that sees one snapshot.
extension PostgresHistory: HistoryReader {
    static let fetchTable = "fetch_history.fetch"
    static let sessionTable = "fetch_history.session"

    package nonisolated(nonsending) func fetches(matching filter: HistoryFilter, order: FetchOrder, limit: Int?) async throws -> [Fetch] {
        try await run("read fetches") { [self] in try await readFetches(filter, order: order, limit: limit) }
    }

    package nonisolated(nonsending) func listing(matching filter: HistoryFilter, limit: Int?) async throws -> HistoryListing {
        try await run("read fetches") { [self] in
            try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                let cursor = try await snapshot()
                return HistoryListing(fetches: try await readFetches(filter, limit: limit), cursor: cursor)
            }
        }
    }

    package nonisolated(nonsending) func fetchesEnded(
        after cursor: inout HistoryCursor, matching filter: HistoryFilter
    ) async throws -> [Fetch] {
        guard case .snapshot(let previous) = cursor.position else {
            throw PostgresHistoryError.server(server: settings.displayName, message: "the follower's place was taken in another history", sqlState: "-")
        }
        let (ended, next) = try await run("read fetches") { [self] in
            try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                let next = try await snapshot()
                // Rows whose transaction the previous read's snapshot did not
                // see: committed since, in whatever order they committed.
                var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
                let snapshot = query.bind(previous)
                query.appendConditions(filter, and: [
                    "pushed_xid >= pg_snapshot_xmin(\(snapshot)::pg_snapshot)",
                    "NOT pg_visible_in_snapshot(pushed_xid, \(snapshot)::pg_snapshot)",
                ])
                query.append(" ORDER BY started_at, seq")
                let check = ClientCheck(filter)
                var ended: [Fetch] = []
                for try await row in try await connection.query(query.query, logger: logger) {
                    let fetch = try Fetch(serverRow: row)
                    if check.keeps(fetch) { ended.append(fetch) }
                }
                return (ended, next)
            }
        }
        cursor = next
        return ended
    }

    package nonisolated(nonsending) func forEachFetch(
        matching filter: HistoryFilter, _ body: @escaping @Sendable (Fetch) throws -> Void
    ) async throws {
        try await run("read fetches") { [self] in
            var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
            query.appendConditions(filter)
            query.append(" ORDER BY started_at, seq")
            let check = ClientCheck(filter)
            try await withCursor(query) { row in
                let fetch = try Fetch(serverRow: row)
                if check.keeps(fetch) { try body(fetch) }
                return true
            }
        }
    }

    package nonisolated(nonsending) func fetch(idPrefix prefix: String) async throws -> Fetch {
        try await run("read fetches") { [self] in
            let (low, high) = try Self.idRange(prefix, kind: "fetch")
            var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
            query.append(" WHERE id >= \(query.bind(low)) AND id <= \(query.bind(high)) ORDER BY id LIMIT 3")
            let matches = try await connection.query(query.query, logger: logger).collect().map(Fetch.init(serverRow:))
            return try Self.unique(matches, kind: "fetch", prefix: prefix)
        }
    }

    package nonisolated(nonsending) func session(idPrefix prefix: String) async throws -> Session {
        try await run("read sessions") { [self] in
            let (low, high) = try Self.idRange(prefix, kind: "session")
            var query = ServerQuery("SELECT \(StoredSessionColumn.serverSelectList) FROM \(Self.sessionTable)")
            query.append(" WHERE id >= \(query.bind(low)) AND id <= \(query.bind(high)) ORDER BY id LIMIT 3")
            let matches = try await connection.query(query.query, logger: logger).collect().map(Session.init(serverRow:))
            return try Self.unique(matches, kind: "session", prefix: prefix)
        }
    }

    package nonisolated(nonsending) func fetches(shortIDEndingWith end: String, limit: Int) async throws -> [Fetch] {
        try await run("read fetches") { [self] in
            let end = try IDPrefixError.validated(end)
            var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
            query.append(" WHERE substring(id::text from \(query.bind(IDArgument.shortIDLength + 1 - end.count))::int for \(query.bind(end.count))::int) = \(query.bind(end))")
            query.append(" ORDER BY started_at DESC, seq DESC LIMIT \(query.bind(limit))")
            return try await connection.query(query.query, logger: logger).collect().map(Fetch.init(serverRow:))
        }
    }

    package nonisolated(nonsending) func sessions(shortIDEndingWith end: String, limit: Int) async throws -> [Session] {
        try await run("read sessions") { [self] in
            let end = try IDPrefixError.validated(end)
            var query = ServerQuery("SELECT \(StoredSessionColumn.serverSelectList) FROM \(Self.sessionTable)")
            query.append(" WHERE substring(id::text from \(query.bind(IDArgument.shortIDLength + 1 - end.count))::int for \(query.bind(end.count))::int) = \(query.bind(end))")
            query.append(" ORDER BY started_at DESC, id DESC LIMIT \(query.bind(limit))")
            return try await connection.query(query.query, logger: logger).collect().map(Session.init(serverRow:))
        }
    }

    package nonisolated(nonsending) func session(id: UUID) async throws -> Session? {
        try await run("read sessions") { [self] in
            var query = ServerQuery("SELECT \(StoredSessionColumn.serverSelectList) FROM \(Self.sessionTable)")
            query.append(" WHERE id = \(query.bind(id))")
            return try await connection.query(query.query, logger: logger).collect().first.map(Session.init(serverRow:))
        }
    }

    package nonisolated(nonsending) func sessionSummaries(matching filter: SessionFilter, limit: Int?) async throws -> [SessionSummary] {
        try await run("read sessions") { [self] in
            try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                var query = ServerQuery("SELECT \(StoredSessionColumn.serverSelectList) FROM \(Self.sessionTable)")
                query.appendConditions(filter)
                query.append(" ORDER BY started_at DESC, id DESC")
                if let limit { query.append(" LIMIT \(query.bind(limit))") }
                let sessions = try await connection.query(query.query, logger: logger).collect().map(Session.init(serverRow:))
                var counts: [UUID: [FetchStatus: Int]] = [:]
                var countQuery = ServerQuery("SELECT session_id, outcome, count(*) FROM \(Self.fetchTable)")
                countQuery.append(" WHERE session_id = ANY(\(countQuery.bind(sessions.map(\.id)))) GROUP BY 1, 2")
                for try await (session, outcome, count) in try await connection.query(countQuery.query, logger: logger)
                    .decode((UUID, String, Int).self) {
                    counts[session, default: [:]][FetchStatus(rawValue: outcome) ?? .failed, default: 0] += count
                }
                return sessions.map { SessionSummary(session: $0, counts: counts[$0.id] ?? [:]) }
            }
        }
    }

    // MARK: - Helpers

    /// Fetches matching `filter`, in `order`; at most `limit`. What the
    /// client checks (`ClientCheck`: searched text, an error's problem) is
    /// matched here, reading until enough match.
    func readFetches(_ filter: HistoryFilter, order: FetchOrder = .newestFirst, limit: Int?) async throws -> [Fetch] {
        var query = ServerQuery("SELECT \(StoredFetch.Column.serverSelectList) FROM \(Self.fetchTable)")
        query.appendConditions(filter)
        let orderBy = switch order {
        case .newestFirst: " ORDER BY started_at DESC, seq DESC"
        case .longestFirst: " ORDER BY duration_ms DESC NULLS LAST, started_at DESC, seq DESC"
        }
        query.append(orderBy)
        let check = ClientCheck(filter)
        guard !check.isEmpty else {
            if let limit { query.append(" LIMIT \(query.bind(limit))") }
            return try await connection.query(query.query, logger: logger).collect().map(Fetch.init(serverRow:))
        }
        var found: [Fetch] = []
        try await withCursor(query) { row in
            let fetch = try Fetch(serverRow: row)
            if check.keeps(fetch) { found.append(fetch) }
            return limit.map { found.count < $0 } ?? true
        }
        return found
    }

    /// Calls `body` with each row of `query`, read through a cursor a
    /// thousand rows at a time (memory stays flat, and stopping early reads
    /// no further), inside one read-only transaction; `body` returns false to stop.
    func withCursor(_ query: ServerQuery, _ body: (PostgresRow) throws -> Bool) async throws {
        try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            try await connection.query(PostgresQuery(unsafeSQL: "DECLARE rows NO SCROLL CURSOR FOR " + query.sql, binds: query.binds), logger: logger)
            while true {
                var count = 0
                for try await row in try await connection.query("FETCH 1000 FROM rows", logger: logger) {
                    count += 1
                    guard try body(row) else { return }
                }
                if count < 1000 { return }
            }
        }
    }

    /// Where the history stands now, for a follower: this transaction's snapshot.
    func snapshot() async throws -> HistoryCursor {
        let text = try await connection.query("SELECT pg_current_snapshot()::text", logger: logger).collect().first?.decode(String.self) ?? ""
        return HistoryCursor(.snapshot(text))
    }

    /// The lowest and highest ids starting with `prefix`, which is
    /// hexadecimal digits and the dashes of an id in their places.
    static func idRange(_ text: String, kind: String) throws -> (UUID, UUID) {
        let prefix = try IDPrefixError.validated(text)
        let template = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
        // Its dashes must be where an id has them, else no id starts with it.
        guard zip(prefix, template).allSatisfy({ character, slot in (slot == "-") == (character == "-") }) else {
            throw IDPrefixError.notFound(kind: kind, prefix: text)
        }
        let rest = template.dropFirst(prefix.count)
        let low = prefix + rest.map { $0 == "-" ? "-" : "0" }
        let high = prefix + rest.map { $0 == "-" ? "-" : "f" }
        return (UUID(uuidString: low)!, UUID(uuidString: high)!)
    }

    static func unique<T: Identifiable>(_ matches: [T], kind: String, prefix: String) throws -> T where T.ID == UUID {
        guard let first = matches.first else { throw IDPrefixError.notFound(kind: kind, prefix: prefix) }
        guard matches.count == 1 else {
            throw IDPrefixError.ambiguous(kind: kind, prefix: prefix, candidates: matches.map(\.id.lowercased))
        }
        return first
    }
}
