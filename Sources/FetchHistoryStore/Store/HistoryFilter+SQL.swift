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
        if let statuses = filter.acceptedStatuses {
            let (condition, bound) = outcomeCondition(statuses)
            clauses.append(condition)
            values += bound
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
        if let patterns = filter.httpStatuses {
            // One range per pattern; none: no row matches.
            let terms = patterns.map { _ in "http_status BETWEEN ? AND ?" }
            clauses.append(terms.isEmpty ? "0" : "(" + terms.joined(separator: " OR ") + ")")
            values += patterns.flatMap { [SQLValue.integer(Int64($0.codes.lowerBound)), .integer(Int64($0.codes.upperBound))] }
        }
        let (least, most) = filter.durationBoundsMilliseconds
        if let least {
            clauses.append("duration_ms >= ?")
            values.append(.integer(least))
        }
        if let most {
            clauses.append("duration_ms <= ?")
            values.append(.integer(most))
        }
        // Last: the cheap, indexed conditions narrow the rows first.
        if let text = filter.containing {
            clauses.append("fetch_history_contains(?, error, source, value)")
            values.append(.text(text))
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), values)
    }

    /// The condition on `outcome` for fetches of any of `statuses`. The
    /// stored outcomes are one `=` (what `fetch_by_outcome` is sought
    /// with) or one `IN`; a fetch not ended (outcome NULL) is running while
    /// its recorder lives and interrupted once it is gone.
    static func outcomeCondition(_ statuses: [FetchStatus]) -> (String, [SQLValue]) {
        let stored = statuses.filter { $0 != .running }
        var terms: [String] = []
        switch stored.count {
        case 0: break
        case 1: terms.append("outcome = ?")
        default: terms.append("outcome IN (" + Array(repeating: "?", count: stored.count).joined(separator: ", ") + ")")
        }
        switch (statuses.contains(.running), statuses.contains(.interrupted)) {
        case (true, true): terms.append("outcome IS NULL")
        case (true, false): terms.append("outcome IS NULL AND \(isAlive) = 1")
        case (false, true): terms.append("(outcome IS NULL AND \(isAlive) = 0)")
        case (false, false): break
        }
        let condition = switch terms.count {
        case 0: "0"
        case 1: terms[0]
        default: "(" + terms.joined(separator: " OR ") + ")"
        }
        return (condition, stored.map { .text($0.rawValue) })
    }

    /// A WHERE clause on the `session` table for `filter`, and the values it binds.
    static func conditions(for filter: SessionFilter) -> (String, [SQLValue]) {
        var clauses: [String] = []
        var values: [SQLValue] = []
        if let since = filter.since {
            clauses.append("started_at >= ?")
            values.append(.integer(since.millisecondsSince1970))
        }
        if let until = filter.until {
            clauses.append("started_at < ?")
            values.append(.integer(until.millisecondsSince1970))
        }
        // The session table has `source` and `host` columns of the same
        // meaning as the fetch table's: the same conditions apply.
        if let text = filter.sourceMatching {
            let (condition, bound) = SourceMatch(text).condition
            clauses.append(condition)
            values += bound
        }
        if let host = filter.host {
            let (condition, bound) = host.condition
            clauses.append(condition)
            values += bound
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), values)
    }
}
