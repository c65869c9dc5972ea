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
/// A URL's user and password never reach the history (`RedactedURL`
/// records `http://***:***@host/`), so a host or a prefix without user info
/// also finds the sources recorded with it hidden; text with user info is
/// hidden the same way first, so `http://bob:pw@host/` finds them too.
///
/// The rule only: each store turns it into its own conditions (SQLite's
/// in `SourceMatch+GLOB`).
package enum SourceMatch: Hashable, Sendable {
    case exactOrHost(String)
    case urlPrefix(String)

    package init(_ text: String) {
        // The user info ends with the authority: `http://h/@bob` is a path.
        let hidden = RedactedURL.hidingSecrets(in: text, userInfoEndsWithAuthority: true)
        self = text.contains("://") ? .urlPrefix(hidden) : .exactOrHost(hidden)
    }

    /// What recording leaves of a URL's user info.
    static let hiddenUserInfos = ["***@", "***:***@"]

    /// The sources that match if the history has them, exactly.
    package var exactSources: [String] {
        switch self {
        case .urlPrefix: []
        case .exactOrHost(let text): [text] + Self.urls(ofAuthority: text)
        }
    }

    /// The literal prefixes of the other sources that match, each with the
    /// bytes that may follow it (nil: anything, or nothing): what a store
    /// seeks in its index of sources, from each prefix.
    package var prefixes: [(prefix: String, following: Set<UInt8>?)] {
        switch self {
        case .urlPrefix(let prefix): Self.withHiddenUserInfo(prefix).map { ($0, nil) }
        case .exactOrHost(let text): Self.urls(ofAuthority: text).map { ($0, Set(":/?#".utf8)) }
        }
    }

    /// `http://` and `https://` URLs of `authority`, as recorded with and
    /// without hidden user info.
    private static func urls(ofAuthority authority: String) -> [String] {
        ["http://", "https://"].flatMap { withHiddenUserInfo($0 + authority) }
    }

    /// `url`, and when it has a scheme and no user info, `url` with each
    /// user info recording may have left.
    package static func withHiddenUserInfo(_ url: String) -> [String] {
        guard let authority = url.firstRange(of: "://")?.upperBound,
              !url[authority...].prefix(while: { !"/?#".contains($0) }).contains("@")
        else { return [url] }
        return [url] + hiddenUserInfos.map { String(url[..<authority]) + $0 + url[authority...] }
    }

    /// `source` without the user info recording hid in it: as a filter
    /// would be typed to find it (`http://***@h/n` → `http://h/n`).
    package static func withoutHiddenUserInfo(_ source: String) -> String {
        guard let authority = source.firstRange(of: "://")?.upperBound else { return source }
        for hidden in hiddenUserInfos.reversed() where source[authority...].hasPrefix(hidden) {
            return String(source[..<authority] + source[source.index(authority, offsetBy: hidden.count)...])
        }
        return source
    }
}
