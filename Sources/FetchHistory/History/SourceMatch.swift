/// What `HistoryFilter.source` (`--source`) matches, decided by the text
/// alone:
///
/// - text containing `://` is a URL prefix: every source that starts with
///   it (`http://127.0.0.1:8080/` finds every path on that port);
/// - any other text is the exact source (`random`) or a host, with or
///   without a port (`127.0.0.1`, `example.com:8443`): every `http://` or
///   `https://` URL whose authority is exactly that, followed by the end,
///   `:`, `/`, `?` or `#`. The host is compared as recorded (no case folding).
///
/// Each form is a `=` or a `GLOB` whose pattern starts with the literal
/// text, so SQLite finds the sources through `fetch_by_source` (the GLOB
/// optimization, sqlite.org/optoverview.html#the_like_optimization).
/// `Database.sources(matching:)` lists them first, one index seek each:
/// `source IN (…)` then reads one source's fetches already in time order,
/// where the `OR` of five terms would sort every matching fetch.
enum SourceMatch {
    case exactOrHost(String)
    case urlPrefix(String)

    init(_ text: String) {
        self = text.contains("://") ? .urlPrefix(text) : .exactOrHost(text)
    }

    /// The condition on the `source` column, and the values it binds.
    var condition: (String, [SQLValue]) {
        let terms = exactSources.map { ("source = ?", $0) } + patterns.map { ("source GLOB ?", $0) }
        return ("(" + terms.map(\.0).joined(separator: " OR ") + ")", terms.map { .text($0.1) })
    }

    /// The sources that match if the history has them, exactly.
    var exactSources: [String] {
        switch self {
        case .urlPrefix: []
        case .exactOrHost(let text): [text, "http://" + text, "https://" + text]
        }
    }

    /// GLOB patterns for the other sources that match.
    var patterns: [String] {
        switch self {
        case .urlPrefix(let prefix): [Self.literalGlob(prefix) + "*"]
        case .exactOrHost(let text):
            ["http://", "https://"].map { $0 + Self.literalGlob(text) + "[:/?#]*" }
        }
    }

    /// The literal prefixes of the other sources that match, each with the
    /// bytes that may follow it (nil: anything, or nothing). The same
    /// sources as `patterns`, for `Database.sources(matching:)`, which walks
    /// `fetch_by_source` from each prefix.
    var prefixes: [(prefix: String, following: Set<UInt8>?)] {
        switch self {
        case .urlPrefix(let prefix): [(prefix, nil)]
        case .exactOrHost(let text):
            ["http://", "https://"].map { ($0 + text, Set(":/?#".utf8)) }
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
