import FetchHistoryModel
import PostgresNIO

extension ServerQuery {
    /// Appends ` WHERE …` for `filter` (nothing when it has no condition),
    /// every value bound. `--grep` (`containing`) is not among them: its
    /// case folding is Swift's (`TextSearch`), which no SQL of PostgreSQL's
    /// reproduces; nor is an error's problem key (`--problem`), Swift's
    /// masking: the rows are narrowed here and checked as they arrive
    /// (`ClientCheck`).
    mutating func appendConditions(_ filter: HistoryFilter, and more: [String] = []) {
        appendWhere(more + filter.storedConditions.compactMap { sql($0) })
    }

    /// Appends ` WHERE …` for the sessions `filter` selects, every value bound.
    mutating func appendConditions(_ filter: SessionFilter) {
        appendWhere(filter.storedConditions.compactMap { sql($0) })
    }

    private mutating func appendWhere(_ clauses: [String]) {
        if !clauses.isEmpty { append(" WHERE " + clauses.joined(separator: " AND ")) }
    }

    /// `condition` in PostgreSQL's SQL, its values bound; nil for what the
    /// client checks itself (`contains`).
    private mutating func sql(_ condition: StoredCondition) -> String? {
        switch condition {
        case .outcome(let stored, _, _):
            // A fetch reaches the server once it has ended: none is running,
            // and one whose recorder died was pushed as interrupted.
            switch stored.count {
            case 0: "false"
            case 1: "outcome = \(bind(stored[0]))"
            default: "outcome = ANY(\(bind(stored)))"
            }
        case .sourceIs(let source): "source = \(bind(source))"
        case .sourceIn(let sources): "source = ANY(\(bind(sources)))"
        case .sourceMatches(let match): sourceCondition(match)
        case .sessionIs(let id): "session_id = \(bind(id))"
        case .startedAtLeast(let milliseconds): "started_at >= \(bind(milliseconds))"
        case .startedBefore(let milliseconds): "started_at < \(bind(milliseconds))"
        case .hostMatches(let pattern): "host LIKE \(bind(pattern.likePattern))"
        case .httpStatusWithin(let ranges):
            // One range each; none: no row matches.
            ranges.isEmpty ? "false" : "(" + ranges.map {
                "http_status BETWEEN \(bind(Int32($0.lowerBound))) AND \(bind(Int32($0.upperBound)))"
            }.joined(separator: " OR ") + ")"
        case .durationAtLeast(let milliseconds): "duration_ms >= \(bind(milliseconds))"
        case .durationAtMost(let milliseconds): "duration_ms <= \(bind(milliseconds))"
        case .problem(let match): problemCondition(match)
        case .contains: nil
        case .sessionHasFetch(let stored, _, _):
            // Every fetch there has ended (one whose recorder died went as interrupted).
            sessionHasFetch(stored)
        }
    }

    /// On the session table: a fetch of it has one of `outcomes`.
    private mutating func sessionHasFetch(_ outcomes: [String]) -> String {
        guard !outcomes.isEmpty else { return "false" }
        return "EXISTS (SELECT 1 FROM fetch_history.fetch f WHERE f.session_id = session.id AND f.outcome = ANY(\(bind(outcomes))))"
    }

    /// What `match`'s keys ask of the stored columns; an error's key itself
    /// is compared by the client (`ClientCheck`). A fetch reaches the server
    /// once it has ended: one whose recorder died was pushed as interrupted,
    /// so `match.interrupted` asks nothing more.
    private mutating func problemCondition(_ match: ProblemMatch) -> String {
        var terms: [String] = []
        if !match.outcomes.isEmpty { terms.append("outcome = ANY(\(bind(match.outcomes)))") }
        if !match.httpStatuses.isEmpty {
            terms.append("(outcome = 'failed' AND http_status = ANY(\(bind(match.httpStatuses.map(Int32.init)))))")
        }
        if !match.errorKeys.isEmpty {
            terms.append("(outcome = 'failed' AND (http_status IS NULL OR http_status BETWEEN 200 AND 299))")
        }
        return terms.isEmpty ? "false" : "(" + terms.joined(separator: " OR ") + ")"
    }

    /// The condition on `source` for `--source` (see `SourceMatch`).
    private mutating func sourceCondition(_ match: SourceMatch) -> String {
        var terms = ["source = ANY(\(bind(match.exactSources)))"]
        for (prefix, following) in match.prefixes {
            let placeholder = bind(prefix)
            var term = "starts_with(source, \(placeholder))"
            if let following {
                let characters = following.sorted().map { String(UnicodeScalar($0)) }
                term += " AND substr(source, char_length(\(placeholder)) + 1, 1) = ANY(\(bind(characters)))"
            }
            terms.append("(\(term))")
        }
        return "(" + terms.joined(separator: " OR ") + ")"
    }

}

/// What `ServerQuery.appendConditions` leaves to the client: the text
/// `--grep` searches for, and the keys `--problem` names.
struct ClientCheck {
    let needle: TextSearch.Needle?
    let problem: ProblemMatch?

    init(_ filter: HistoryFilter) {
        needle = filter.containing.map(TextSearch.Needle.init)
        problem = filter.problems.map { ProblemMatch(keys: $0) }
    }

    /// Whether every fetch the server gives passes.
    var isEmpty: Bool { needle == nil && problem == nil }

    /// Whether `fetch` passes what `appendConditions` left to the client.
    func keeps(_ fetch: Fetch) -> Bool {
        if let problem, !problem.matches(fetch) { return false }
        guard let needle else { return true }
        return [fetch.errorMessage, fetch.source, fetch.value?.json].contains { text in text.map(needle.isFound) ?? false }
    }
}

extension HostPattern {
    /// The pattern for `LIKE`: `*` is `%`, and `%`, `_` and `\` (LIKE's
    /// escape character) stand for themselves.
    var likePattern: String {
        parts.map { part in
            var literal = ""
            for character in part {
                if character == "%" || character == "_" || character == "\\" { literal.append("\\") }
                literal.append(character)
            }
            return literal
        }.joined(separator: "%")
    }
}
