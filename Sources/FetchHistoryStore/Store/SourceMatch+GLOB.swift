import FetchHistoryModel

// `SourceMatch` in SQLite: each form is a `=` or a `GLOB` whose pattern starts
// with the literal text, so SQLite finds the sources through
// `fetch_by_source` (the GLOB optimization,
// sqlite.org/optoverview.html#the_like_optimization).
// `Database.sources(matching:)` lists them first, one index seek each:
// `source IN (…)` then reads one source's fetches already in time order,
// where the `OR` of five terms would sort every matching fetch.
extension SourceMatch {
    /// The condition on the `source` column, and the values it binds.
    var condition: (String, [SQLValue]) {
        let terms = exactSources.map { ("source = ?", $0) } + patterns.map { ("source GLOB ?", $0) }
        return ("(" + terms.map(\.0).joined(separator: " OR ") + ")", terms.map { .text($0.1) })
    }

    /// GLOB patterns for the other sources that match: each of `prefixes`,
    /// then any byte it may be followed by (`?`, `#` and `:` are literal in
    /// a class), then anything.
    var patterns: [String] {
        prefixes.map { prefix, following in
            let next = following.map { bytes in "[" + String(decoding: bytes.sorted(), as: UTF8.self) + "]" } ?? ""
            return Self.literalGlob(prefix) + next + "*"
        }
    }

    /// `text` as a GLOB pattern matching exactly it: `*`, `?` and `[` are
    /// wrapped in a one-character class (`]` alone is already literal).
    static func literalGlob(_ text: String) -> String {
        var pattern = ""
        for character in text {
            switch character {
            case "*", "?", "[": pattern += "[\(character)]"
            default: pattern.append(character)
            }
        }
        return pattern
    }
}
