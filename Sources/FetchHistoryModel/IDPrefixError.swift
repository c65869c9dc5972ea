/// Why an id, or the start of one (`show`, `delete`, `--session`), named
/// no single fetch or session: the same sentences whichever history was asked.
public enum IDPrefixError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No fetch (or session) id starts with the prefix.
    case notFound(kind: String, prefix: String)
    /// Several ids start with the prefix.
    case ambiguous(kind: String, prefix: String, candidates: [String])
    /// A prefix with characters no id has.
    case invalid(String)

    /// `text` as a prefix, lower-cased, when it can start an id: hexadecimal
    /// digits and dashes, 1 to 36 of them.
    public static func validated(_ text: String) throws(IDPrefixError) -> String {
        let prefix = text.lowercased()
        guard !prefix.isEmpty, prefix.count <= 36, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw .invalid(text.count > 40 ? text.prefix(40) + "…" : text)
        }
        return prefix
    }

    public var description: String {
        switch self {
        case .notFound(let kind, let prefix):
            "no \(kind) has an id starting with '\(prefix)'"
        case .ambiguous(let kind, let prefix, let candidates):
            // "fetch" takes -es: "several fetchs" is how this read once.
            "'\(prefix)' matches several \(kind.hasSuffix("h") ? kind + "es" : kind + "s") (\(candidates.joined(separator: ", "))…); give more of the id"
        case .invalid(let text):
            "'\(text)' is not an id or id prefix (ids are hexadecimal digits and dashes)"
        }
    }
}
