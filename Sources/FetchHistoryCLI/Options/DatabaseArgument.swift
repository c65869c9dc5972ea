import ArgumentParser
import FetchHistory

/// What a history argument names — `--database`, `$FETCH_HISTORY_DB`,
/// `push --to`, `pull --from`: a file's path, or a team history on a server
/// by its `postgres://` or `postgresql://` URL (the scheme in any case, as
/// libpq reads it).
///
/// Anything else shaped like a URL is refused before anything is opened or
/// created: another scheme (`mysql://…`, `file://…`), and near misses of
/// PostgreSQL's (`postgress://`, `pg://`, `postgres:/…`). Taken as paths,
/// they used to become folders named after the URL, password included.
///
///     try DatabaseArgument("Postgres://ci@db/team", option: "--database")  // .server
///     try DatabaseArgument("~/h.sqlite", option: "--database")             // .file
///     try DatabaseArgument("mysql://u:pw@h/x", option: "--database")
///     // ValidationError: "--database takes a file's path or a postgres:// or
///     //   postgresql:// URL, not a mysql: URL ('mysql://***:***@h/x')"
enum DatabaseArgument: Equatable {
    case file(String)
    case server(String)

    /// The schemes libpq takes, lower-cased.
    static let serverSchemes = ["postgres", "postgresql"]

    /// What a history argument may be, as a refusal says it.
    static let accepted = "a file's path or a postgres:// or postgresql:// URL"

    /// Classifies `text`, given as `option`; the refusal names the option
    /// and what it `accepts`.
    init(_ text: String, option: String, accepts: String = accepted) throws(ValidationError) {
        guard let (scheme, rest) = Self.scheme(of: text) else {
            self = .file(text)
            return
        }
        let name = scheme.lowercased()
        if Self.serverSchemes.contains(name), rest.hasPrefix("//") {
            self = .server(text)
            return
        }
        guard rest.hasPrefix("/") || Self.isNearMiss(name) else {
            // `notes:v2.sqlite`: a file whose name holds a colon.
            self = .file(text)
            return
        }
        throw ValidationError(
            "\(option) takes \(accepts), not a \(scheme): URL ('\(Self.shown(text))')"
        )
    }

    /// `text` as it may be printed anywhere — an error, a hint, a progress
    /// line, JSON: a path as it is; anything with a scheme with its user
    /// and password replaced by `***`, and secret-named parameters' values
    /// too (`RedactedURL`), as is a URL inside a longer word. Every mention
    /// of a history argument goes through here.
    static func shown(_ text: String) -> String {
        guard let (scheme, rest) = scheme(of: text) else {
            // A URL inside a longer word: `--to=postgres://u:pw@h/team`.
            return text.contains("://") ? RedactedURL(text: text).description : text
        }
        let slashes = rest.prefix { $0 == "/" }
        return scheme + ":" + slashes + RedactedURL(text: String(rest.dropFirst(slashes.count))).description
    }

    /// The scheme (RFC 3986: a letter, then letters, digits, `+`, `-` or
    /// `.`) and what follows its colon; nil when `text` does not start with one.
    private static func scheme(of text: String) -> (scheme: String, rest: Substring)? {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = text.utf8[..<colon]
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        guard let first = scheme.first, isLetter(first), scheme.allSatisfy({ byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.".utf8.contains(byte)
        }) else { return nil }
        return (String(text[..<colon]), text[text.index(after: colon)...])
    }

    /// Whether `scheme` (lower-cased) was probably meant as PostgreSQL's:
    /// `pg`, `pgsql`, `postgress`, `postgre`, `postgresq`.
    private static func isNearMiss(_ scheme: String) -> Bool {
        scheme.hasPrefix("pg") || scheme.hasPrefix("postgre")
            || serverSchemes.contains { scheme.count > 3 && scheme.editDistance(to: $0) <= 2 }
    }
}
