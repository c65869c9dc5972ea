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
        whereClause(filter.storedConditions)
    }

    /// A WHERE clause on the `session` table for `filter`, and the values it binds.
    static func conditions(for filter: SessionFilter) -> (String, [SQLValue]) {
        whereClause(filter.storedConditions)
    }

    /// ` WHERE ` and `conditions` joined by `AND` (nothing for none), and
    /// the values they bind.
    private static func whereClause(_ conditions: [StoredCondition]) -> (String, [SQLValue]) {
        var clauses: [String] = []
        var values: [SQLValue] = []
        for condition in conditions {
            let (clause, bound) = sql(condition)
            clauses.append(clause)
            values += bound
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), values)
    }

    /// `condition` in SQLite's SQL, and the values it binds.
    private static func sql(_ condition: StoredCondition) -> (String, [SQLValue]) {
        switch condition {
        case .outcome(let stored, let running, let interrupted): outcomeCondition(stored: stored, running: running, interrupted: interrupted)
        case .sourceIs(let source): ("source = ?", [.text(source)])
        // One `?` per source (SQLite takes an empty list: no row matches).
        case .sourceIn(let sources): ("source IN (" + placeholders(sources.count) + ")", sources.map { .text($0) })
        case .sourceMatches(let match): match.condition
        case .sessionIs(let id): ("session_id = ?", [.text(id.lowercased)])
        case .startedAtLeast(let milliseconds): ("started_at >= ?", [.integer(milliseconds)])
        case .startedBefore(let milliseconds): ("started_at < ?", [.integer(milliseconds)])
        case .hostMatches(let pattern): pattern.condition
        case .httpStatusWithin(let ranges):
            // One range each; none: no row matches.
            (ranges.isEmpty ? "0" : "(" + ranges.map { _ in "http_status BETWEEN ? AND ?" }.joined(separator: " OR ") + ")",
             ranges.flatMap { [SQLValue.integer(Int64($0.lowerBound)), .integer(Int64($0.upperBound))] })
        case .durationAtLeast(let milliseconds): ("duration_ms >= ?", [.integer(milliseconds)])
        case .durationAtMost(let milliseconds): ("duration_ms <= ?", [.integer(milliseconds)])
        case .problem(let match): problemCondition(match)
        case .contains(let text): ("fetch_history_contains(?, error, source, value)", [.text(text)])
        case .sessionHasFetch(let stored, let running, let interrupted):
            sessionHasFetch(stored: stored, running: running, interrupted: interrupted)
        }
    }

    /// On the `session` table: a fetch of it has one of the `stored`
    /// outcomes, or has not ended and its recorder (the session's process)
    /// is alive, for `running`, or gone, for `interrupted`.
    private static func sessionHasFetch(stored: [String], running: Bool, interrupted: Bool) -> (String, [SQLValue]) {
        var terms: [String] = []
        if !stored.isEmpty {
            terms.append("EXISTS (SELECT 1 FROM fetch WHERE fetch.session_id = session.id AND fetch.outcome IN (" + placeholders(stored.count) + "))")
        }
        let unended = "EXISTS (SELECT 1 FROM fetch WHERE fetch.session_id = session.id AND fetch.outcome IS NULL)"
        let alive = "fetch_history_process_alive(session.host, session.boot_id, session.process_id, session.process_started)"
        switch (running, interrupted) {
        case (true, true): terms.append(unended)
        case (true, false): terms.append("(\(unended) AND \(alive) = 1)")
        case (false, true): terms.append("(\(unended) AND \(alive) = 0)")
        case (false, false): break
        }
        return (terms.isEmpty ? "0" : "(" + terms.joined(separator: " OR ") + ")", stored.map { .text($0) })
    }

    /// The condition for fetches whose problem is one of `match`'s keys:
    /// what each key asks of the stored columns, and for an error's key,
    /// the key `fetch_history_problem` computes (only for failed fetches
    /// whose HTTP status makes no key of its own).
    static func problemCondition(_ match: ProblemMatch) -> (String, [SQLValue]) {
        var terms: [String] = []
        var values: [SQLValue] = []
        if !match.outcomes.isEmpty {
            terms.append("outcome IN (" + placeholders(match.outcomes.count) + ")")
            values += match.outcomes.map { .text($0) }
        }
        if match.interrupted { terms.append("(outcome IS NULL AND \(isAlive) = 0)") }
        if !match.httpStatuses.isEmpty {
            terms.append("(outcome = 'failed' AND http_status IN (" + placeholders(match.httpStatuses.count) + "))")
            values += match.httpStatuses.map { .integer(Int64($0)) }
        }
        if !match.errorKeys.isEmpty {
            terms.append(
                "(outcome = 'failed' AND (http_status IS NULL OR http_status BETWEEN 200 AND 299) "
                    + "AND fetch_history_problem(outcome, http_status, error) IN (" + placeholders(match.errorKeys.count) + "))"
            )
            values += match.errorKeys.map { .text($0) }
        }
        return (terms.isEmpty ? "0" : "(" + terms.joined(separator: " OR ") + ")", values)
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The condition on `outcome` for fetches of the `stored` outcomes, or
    /// not ended (outcome NULL) and `running` while the recorder lives or
    /// `interrupted` once it is gone. The stored outcomes are one `=` (what
    /// `fetch_by_outcome` is sought with) or one `IN`.
    static func outcomeCondition(stored: [String], running: Bool, interrupted: Bool) -> (String, [SQLValue]) {
        var terms: [String] = []
        switch stored.count {
        case 0: break
        case 1: terms.append("outcome = ?")
        default: terms.append("outcome IN (" + placeholders(stored.count) + ")")
        }
        switch (running, interrupted) {
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
        return (condition, stored.map { .text($0) })
    }
}
