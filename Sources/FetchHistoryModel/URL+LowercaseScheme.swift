import FoundationEssentials

extension URL {
    /// The same URL with its scheme in lower case: `HTTP://host/n` becomes
    /// `http://host/n`. Schemes are case-insensitive and lower case is their
    /// canonical form (RFC 3986, section 3.1), but URLSession on Linux
    /// refuses `HTTP://` as an unsupported URL (-1002).
    ///
    /// ```swift
    /// URL(string: "HTTPS://example.com/n")!.withLowercaseScheme   // https://example.com/n
    /// ```
    package var withLowercaseScheme: URL {
        guard let scheme, scheme != scheme.lowercased(),
              var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.scheme = scheme.lowercased()
        return components.url ?? self
    }
}
