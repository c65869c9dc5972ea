import FetchHistoryModel
import FoundationEssentials

// A filter as a WHERE clause.
extension HistorySQL {
    /// `conditions` (a WHERE clause or nothing) with one more fixed condition.
    static func and(_ conditions: String, _ condition: String) -> String {
        conditions.isEmpty ? " WHERE \(condition)" : conditions + " AND \(condition)"
    }

    /// A WHERE clause made of fixed fragments, and the values it binds.
    static func conditions(for filter: HistoryFilter) -> (String, [SQLValue]) {
        var clauses: [String] = []
        var values: [SQLValue] = []
        switch filter.status {
        case nil: break
        case .running: clauses.append("outcome IS NULL AND \(isAlive) = 1")
        case .interrupted: clauses.append("(outcome = 'interrupted' OR (outcome IS NULL AND \(isAlive) = 0))")
        case let status?:
            clauses.append("outcome = ?")
            values.append(.text(status.rawValue))
        }
        if let source = filter.source {
            clauses.append("source = ?")
            values.append(.text(source))
        }
        if let sources = filter.sources {
            // One `?` per source (SQLite takes an empty list: no row matches).
            clauses.append("source IN (" + Array(repeating: "?", count: sources.count).joined(separator: ", ") + ")")
            values += sources.map { .text($0) }
        }
        if let text = filter.sourceMatching {
            let (condition, bound) = SourceMatch(text).condition
            clauses.append(condition)
            values += bound
        }
        if let session = filter.sessionID {
            clauses.append("session_id = ?")
            values.append(.text(session.lowercased))
        }
        if let since = filter.since {
            clauses.append("started_at >= ?")
            values.append(.integer(since.millisecondsSince1970))
        }
        if let until = filter.until {
            clauses.append("started_at < ?")
            values.append(.integer(until.millisecondsSince1970))
        }
        if let host = filter.host {
            let (condition, bound) = host.condition
            clauses.append(condition)
            values += bound
        }
        // Last: the cheap, indexed conditions narrow the rows first.
        if let text = filter.containing {
            clauses.append("fetch_history_contains(?, error, source, value)")
            values.append(.text(text))
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), values)
    }
}
