extension String {
    /// Whether this source is an HTTP(S) URL (the HTTP source's, which asks
    /// by GET): what HAR can hold, and what spans name `url.full`.
    package var isHTTPSource: Bool {
        let scheme = prefix { $0 != ":" }.lowercased()
        return (scheme == "http" || scheme == "https") && dropFirst(scheme.count).hasPrefix("://")
    }
}
