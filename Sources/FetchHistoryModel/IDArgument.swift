import FoundationEssentials

/// What an id typed by a person names.
///
/// Ids are time-ordered: the first characters of ids made minutes apart are
/// the same, and the characters that tell two of them apart are the last of
/// the eight that tables show. So 4 to 7 hexadecimal characters are first
/// read as the end of that 8-character short id (`150a` names `1389150a`),
/// the newest fetch first, and only when no short id ends so, as the start
/// of an id. Anything else — 1 to 3 characters, 8 or more, or text with
/// dashes — is the start of an id, as it always was: full ids and
/// 8-character prefixes keep working.
public enum IDArgument: Hashable, Sendable {
    /// The start of an id, lower-cased.
    case prefix(String)
    /// The end of a short id, lower-cased (also tried as a prefix).
    case shortIDEnd(String)

    /// How many characters of an id tables show.
    public static let shortIDLength = 8
    /// How many candidates an ambiguous short id end lists.
    public static let candidateLimit = 5

    public init(_ text: String) throws(IDPrefixError) {
        let valid = try IDPrefixError.validated(text)
        self = (4..<Self.shortIDLength).contains(valid.count) && !valid.contains("-") ? .shortIDEnd(valid) : .prefix(valid)
    }

    /// The one match of a short id end, or why there is not one: nil when
    /// there is none (then the text is tried as a prefix).
    public static func pick<T: Identifiable>(_ matches: [T], kind: String, text: String) throws(IDPrefixError) -> T? where T.ID == UUID {
        guard let first = matches.first else { return nil }
        guard matches.count == 1 else {
            throw .ambiguous(kind: kind, prefix: text, candidates: matches.map { String($0.id.lowercased.prefix(shortIDLength)) })
        }
        return first
    }
}
