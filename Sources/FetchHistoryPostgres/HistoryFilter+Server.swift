import FetchHistoryModel
import PostgresNIO

extension ServerQuery {
    /// Appends ` WHERE …` for `filter` (nothing when it has no condition),
    /// every value bound. `--grep` (`containing`) is not among them: its
    /// case folding is Swift's (`TextSearch`), which no SQL of PostgreSQL's
    /// reproduces, so the rows are searched as they arrive
    /// (`ServerQuery.keeps(_:for:)`).
    mutating func appendConditions(_ filter: HistoryFilter, and more: [String] = []) {
        var clauses = more
        if let statuses = filter.acceptedStatuses {
            // A fetch reaches the server once it has ended: none is running.
            let stored = statuses.filter { $0 != .running }.map(\.rawValue)
            switch stored.count {
            case 0: clauses.append("false")
            case 1: clauses.append("outcome = \(bind(stored[0]))")
            default: clauses.append("outcome = ANY(\(bind(stored)))")
            }
        }
        if let source = filter.source { clauses.append("source = \(bind(source))") }
        if let sources = filter.sources { clauses.append("source = ANY(\(bind(sources)))") }
        if let text = filter.sourceMatching { clauses.append(sourceCondition(text)) }
        if let session = filter.sessionID { clauses.append("session_id = \(bind(session))") }
        if let since = filter.since { clauses.append("started_at >= \(bind(since.millisecondsSince1970))") }
        if let until = filter.until { clauses.append("started_at < \(bind(until.millisecondsSince1970))") }
        if let host = filter.host { clauses.append("host LIKE \(bind(host.likePattern))") }
        if let patterns = filter.httpStatuses {
            // One range per pattern; none: no row matches.
            let terms = patterns.map { "http_status BETWEEN \(bind(Int32($0.codes.lowerBound))) AND \(bind(Int32($0.codes.upperBound)))" }
            clauses.append(terms.isEmpty ? "false" : "(" + terms.joined(separator: " OR ") + ")")
        }
        let (least, most) = filter.durationBoundsMilliseconds
        if let least { clauses.append("duration_ms >= \(bind(least))") }
        if let most { clauses.append("duration_ms <= \(bind(most))") }
        appendWhere(clauses)
    }

    /// Appends ` WHERE …` for the sessions `filter` selects, every value bound.
    mutating func appendConditions(_ filter: SessionFilter) {
        var clauses: [String] = []
        if let since = filter.since { clauses.append("started_at >= \(bind(since.millisecondsSince1970))") }
        if let until = filter.until { clauses.append("started_at < \(bind(until.millisecondsSince1970))") }
        // The session table's `source` and `host` mean what the fetch table's do.
        if let text = filter.sourceMatching { clauses.append(sourceCondition(text)) }
        if let host = filter.host { clauses.append("host LIKE \(bind(host.likePattern))") }
        appendWhere(clauses)
    }

    private mutating func appendWhere(_ clauses: [String]) {
        if !clauses.isEmpty { append(" WHERE " + clauses.joined(separator: " AND ")) }
    }

    /// The condition on `source` for `--source text` (see `SourceMatch`).
    private mutating func sourceCondition(_ text: String) -> String {
        let match = SourceMatch(text)
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

    /// Whether `fetch` passes what `appendConditions` left to the client.
    static func keeps(_ fetch: Fetch, for needle: TextSearch.Needle?) -> Bool {
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
