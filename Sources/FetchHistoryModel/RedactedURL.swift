import FoundationEssentials

/// A URL with its secrets replaced by `***`, safe to store and print.
///
/// - The user name and password are replaced.
/// - Query (and fragment) parameters (separated by `&` or `;`) whose name looks secret have their
///   value replaced: the name, percent-decoded and lower-cased, is or ends
///   with one of `secretNames` — so `X-Api-Key` and `client_secret` are
///   caught as well as `token`. Matching by suffix errs on the side of
///   hiding too much (`monkey=1` is hidden too).
///
/// ```swift
/// RedactedURL(URL(string: "https://bob:pw@host/n?token=abc&page=2")!).description
/// // "https://***:***@host/n?token=***&page=2"
/// ```
public struct RedactedURL: Hashable, Sendable, CustomStringConvertible {
    public static let secretNames = [
        "token", "access_token", "key", "api_key", "apikey", "secret", "password", "passwd", "sig",
        "signature", "auth", "session", "code", "authorization", "cookie",
    ]

    public let description: String

    public init(_ url: URL) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            // Unparseable as components: keep nothing that could be secret.
            description = "\(url.scheme ?? "url"):***"
            return
        }
        if components.percentEncodedUser != nil { components.percentEncodedUser = "***" }
        if components.percentEncodedPassword != nil { components.percentEncodedPassword = "***" }
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = Self.redactParameters(query)
        }
        if let fragment = components.percentEncodedFragment {
            components.percentEncodedFragment = Self.redactParameters(fragment)
        }
        description = components.string ?? "\(url.scheme ?? "url"):***"
    }

    /// `text`, meant as a URL but perhaps not one, with what may be secret
    /// replaced as `init(_:)` replaces it: the user name and password (all
    /// before the last `@` ahead of the query, so a password holding `/` is
    /// hidden too), and secret-looking query and fragment parameters. For
    /// refusing a value: `user:pw@host/n`, without a scheme, parses as a URL
    /// whose scheme is `user` and whose password is in its path.
    ///
    /// ```swift
    /// RedactedURL(text: "bob:pw@host/n?token=abc").description   // "***:***@host/n?token=***"
    /// ```
    package init(text: String) {
        description = Self.hidingSecrets(in: text, userInfoEndsWithAuthority: false)
    }

    /// `text` with its user info and secret-looking parameters' values
    /// replaced by `***`. The user info is all before the last `@` of the
    /// authority (which ends at the first `/`, `?` or `#` after `://`) when
    /// `userInfoEndsWithAuthority`, else before the last `@` ahead of the
    /// query: `init(text:)` errs on the side of hiding, a filter
    /// (`SourceMatch`) must keep a path's `@` as it is.
    package static func hidingSecrets(in text: String, userInfoEndsWithAuthority: Bool) -> String {
        var rest = Substring(text)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let authorityStart = rest.firstRange(of: "://")?.upperBound ?? rest.startIndex
        let authorityEnd = userInfoEndsWithAuthority ? rest[authorityStart...].firstIndex(of: "/") ?? rest.endIndex : rest.endIndex
        if let at = rest[authorityStart..<authorityEnd].lastIndex(of: "@") {
            let userInfo = rest[authorityStart..<at]
            rest = rest[..<authorityStart] + (userInfo.contains(":") ? "***:***" : "***") + rest[at...]
        }
        return String(rest)
            + (query.map { "?" + redactParameters(String($0)) } ?? "")
            + (fragment.map { "#" + redactParameters(String($0)) } ?? "")
    }

    /// `source` as recording stores it: a URL's user info and
    /// secret-named parameters' values hidden, everything else byte for
    /// byte; nil when it has nothing to hide, or is no URL (`random`, an
    /// app's own name for its source). What `import` and `pull` apply to
    /// each source, so that secrets enter the history by no door.
    ///
    /// ```swift
    /// RedactedURL.hidingSecrets(ofSource: "https://bob:pw@h/?token=abc")  // "https://***:***@h/?token=***"
    /// RedactedURL.hidingSecrets(ofSource: "https://h/n")                   // nil
    /// ```
    package static func hidingSecrets(ofSource source: String) -> String? {
        guard source.contains("://") else { return nil }
        let hidden = hidingSecrets(in: source, userInfoEndsWithAuthority: true)
        return hidden == source ? nil : hidden
    }

    /// Replaces the values of secret-looking `name=value` pairs in a
    /// percent-encoded list, leaving everything else as it was. Pairs are
    /// separated by `&`, and by `;` too, as HTML 4 told servers to accept
    /// (and some still do): `?a=1;token=abc` would otherwise keep its token.
    static func redactParameters(_ list: String) -> String {
        list.split(separator: "&", omittingEmptySubsequences: false).map { pairs in
            pairs.split(separator: ";", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let name = pair[..<equals]
                return isSecret(String(name)) ? name + "=***" : String(pair)
            }.joined(separator: ";")
        }.joined(separator: "&")
    }

    static func isSecret(_ encodedName: String) -> Bool {
        isSecretName(formDecoded(encodedName))
    }

    /// Whether a parameter's or a member's name, decoded, looks secret: in
    /// lower case, it is or ends with one of `secretNames`. The one rule
    /// for URLs (`init(_:)`) and bodies (`RedactedBody`).
    static func isSecretName(_ name: String) -> Bool {
        let name = name.lowercased()
        return secretNames.contains { name.hasSuffix($0) }
    }

    /// A form-encoded name or value as written: `+` is a space (unless
    /// `plusIsSpace` is false: percent-encoding alone), `%XX` a byte; a
    /// malformed escape (`%zz`, `%+f`) stays as it is.
    package static func formDecoded(_ text: String, plusIsSpace: Bool = true) -> String {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2, let high = rest.first?.hexDigitValue, let low = rest.dropFirst().first?.hexDigitValue {
                bytes.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
