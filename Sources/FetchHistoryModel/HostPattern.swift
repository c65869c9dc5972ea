/// What `--host` takes: a host name in which `*` stands for any run of
/// characters (`ci-*`, `*.example.com`, `probe-3`); every other character
/// is literal (`?`, `[`, `%`, `_` and `\` too). Case-sensitive, as host names
/// are recorded. A store turns it into its own pattern syntax (SQLite's
/// GLOB, PostgreSQL's LIKE) from `parts`.
///
/// ```swift
/// HostPattern("ci-*").matches("ci-7")   // true
/// ```
public struct HostPattern: Hashable, Sendable {
    /// The pattern as given.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    /// The literal runs between the `*`s, in order: `ci-*-x` is
    /// `["ci-", "-x"]`; the first run starts the host and the last ends it.
    public var parts: [Substring] {
        text.split(separator: "*", omittingEmptySubsequences: false)
    }

    /// Whether `host` matches: the value every store's translation must agree with.
    public func matches(_ host: String) -> Bool {
        let parts = parts
        guard parts.count > 1 else { return host == text }
        var rest = host[...]
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.firstRange(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        let last = parts[parts.count - 1]
        return rest.count >= last.count && rest.hasSuffix(last)
    }
}
