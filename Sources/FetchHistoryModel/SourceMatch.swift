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
/// The rule only: each store turns it into its own conditions (SQLite's
/// in `SourceMatch+GLOB`).
package enum SourceMatch {
    case exactOrHost(String)
    case urlPrefix(String)

    package init(_ text: String) {
        self = text.contains("://") ? .urlPrefix(text) : .exactOrHost(text)
    }

    /// The sources that match if the history has them, exactly.
    package var exactSources: [String] {
        switch self {
        case .urlPrefix: []
        case .exactOrHost(let text): [text, "http://" + text, "https://" + text]
        }
    }

    /// The literal prefixes of the other sources that match, each with the
    /// bytes that may follow it (nil: anything, or nothing): what a store
    /// seeks in its index of sources, from each prefix.
    package var prefixes: [(prefix: String, following: Set<UInt8>?)] {
        switch self {
        case .urlPrefix(let prefix): [(prefix, nil)]
        case .exactOrHost(let text):
            ["http://", "https://"].map { ($0 + text, Set(":/?#".utf8)) }
        }
    }
}
