import FetchHistoryModel
import Foundation
import PostgresNIO

// Retention: `prune` and `delete` on the server. Every fetch there has
// ended, so none is kept for running; a session left with no fetch goes too.
extension PostgresHistory {
    package nonisolated(nonsending) func fetchesToDelete(_ rule: RetentionRule) async throws -> RetentionSummary {
        try await run("read fetches") { [self] in
            try await transaction(" ISOLATION LEVEL REPEATABLE READ READ ONLY") { try await plan(try await resolve(rule)) }
        }
    }

    package nonisolated(nonsending) func deleteFetches(_ rule: RetentionRule) async throws -> RetentionSummary {
        try await run("delete fetches") { [self] in
            try await transaction {
                // Pushes wait until the deletion is made: a fetch pushed
                // meanwhile is neither counted nor deleted by surprise.
                try await connection.query("LOCK TABLE fetch_history.fetch IN SHARE ROW EXCLUSIVE MODE", logger: logger)
                let selection = try await resolve(rule)
                let summary = try await plan(selection)
                guard summary.fetches > 0 else { return summary }
                var sessions = ServerQuery("CREATE TEMP TABLE emptied ON COMMIT DROP AS ")
                sessions.appendEmptiedSessions(selection)
                try await connection.query(sessions.query, logger: logger)
                var deletion = ServerQuery("DELETE FROM \(Self.fetchTable) WHERE ")
                deletion.append(selection)
                try await connection.query(deletion.query, logger: logger)
                try await connection.query("DELETE FROM fetch_history.session WHERE id IN (SELECT id FROM emptied)", logger: logger)
                return summary
            }
        }
    }

    /// The server gives deleted rows' space back on its own (autovacuum).
    package nonisolated(nonsending) func reclaimSpace() async throws -> ReclaimedSpace? { nil }

    /// What deleting `selection` deletes now.
    private func plan(_ selection: Selection) async throws -> RetentionSummary {
        var range = ServerQuery("SELECT count(*), min(started_at), max(started_at) FROM \(Self.fetchTable) WHERE ")
        range.append(selection)
        let (count, oldest, newest) = try await connection.query(range.query, logger: logger).collect().first?
            .decode((Int, Int64?, Int64?).self) ?? (0, nil, nil)
        var sessions = ServerQuery("SELECT count(*) FROM (")
        sessions.appendEmptiedSessions(selection)
        sessions.append(") emptied")
        let emptied = try await connection.query(sessions.query, logger: logger).collect().first?.decode(Int.self) ?? 0
        return RetentionSummary(
            fetches: count, sessions: emptied, oldest: oldest.map(Timestamp.init(millisecondsSince1970:)),
            newest: newest.map(Timestamp.init(millisecondsSince1970:)), keptRunning: 0
        )
    }

    /// The fetches `rule` names, as a condition SQL can check row by row.
    /// Named fetches must all exist, or nothing is deleted.
    private func resolve(_ rule: RetentionRule) async throws -> Selection {
        switch rule {
        case .startedBefore(let time):
            return .startedBefore(time.millisecondsSince1970)
        case .keepingNewest(let count):
            guard count > 0 else { return .every }
            // The newest `count` in list's order stay: the rest are older than the last of them.
            var boundary = ServerQuery("SELECT started_at, seq FROM \(Self.fetchTable) ORDER BY started_at DESC, seq DESC")
            boundary.append(" OFFSET \(boundary.bind(count - 1)) LIMIT 1")
            guard let (startedAt, seq) = try await connection.query(boundary.query, logger: logger).collect().first?
                .decode((Int64, Int64).self) else { return .nothing }
            return .olderThan(startedAt: startedAt, seq: seq)
        case .fetches(let ids):
            var found = ServerQuery("SELECT id FROM \(Self.fetchTable)")
            found.append(" WHERE id = ANY(\(found.bind(ids)))")
            let existing = Set(try await connection.query(found.query, logger: logger).collect().map { try $0.decode(UUID.self) })
            if let missing = ids.first(where: { !existing.contains($0) }) {
                throw IDPrefixError.notFound(kind: "fetch", prefix: missing.lowercased)
            }
            return .ids(ids)
        }
    }

    /// A rule resolved to values: appended to any query as its condition,
    /// with placeholders of that query's own.
    enum Selection {
        case startedBefore(Int64)
        case olderThan(startedAt: Int64, seq: Int64)
        case every
        case nothing
        case ids([UUID])
    }
}

extension ServerQuery {
    /// The condition on a fetch (`alias.` before its columns, when given).
    mutating func append(_ selection: PostgresHistory.Selection, alias: String = "") {
        switch selection {
        case .startedBefore(let time): append("\(alias)started_at < \(bind(time))")
        case .olderThan(let startedAt, let seq): append("(\(alias)started_at, \(alias)seq) < (\(bind(startedAt)), \(bind(seq)))")
        case .every: append("true")
        case .nothing: append("false")
        case .ids(let ids): append("\(alias)id = ANY(\(bind(ids)))")
        }
    }

    /// The ids of the sessions deleting `selection` leaves with no fetch (a
    /// session that was already empty is left alone).
    mutating func appendEmptiedSessions(_ selection: PostgresHistory.Selection) {
        append("SELECT s.id FROM fetch_history.session s WHERE EXISTS (SELECT 1 FROM fetch_history.fetch f WHERE f.session_id = s.id AND ")
        append(selection, alias: "f.")
        append(") AND NOT EXISTS (SELECT 1 FROM fetch_history.fetch f WHERE f.session_id = s.id AND NOT (")
        append(selection, alias: "f.")
        append("))")
    }
}
