import FetchHistoryModel
import FoundationEssentials

/// An OTLP/HTTP endpoint that takes traces, configured the way every
/// OpenTelemetry SDK configures its exporter: a base URL, to which
/// `/v1/traces` is added (`OTEL_EXPORTER_OTLP_ENDPOINT`), or the traces URL
/// itself (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and headers written
/// `name=value,name=value` with the values percent-encoded
/// (`OTEL_EXPORTER_OTLP_HEADERS`).
///
/// ```swift
/// let endpoint = try OTLPEndpoint(base: "http://collector:4318", headers: "x-api-key=abc%2C1")
/// endpoint.tracesURL  // "http://collector:4318/v1/traces"
/// endpoint.headers    // [("x-api-key", "abc,1")]
/// ```
package struct OTLPEndpoint: Hashable, Sendable {
    /// Where each request goes.
    package let tracesURL: String
    /// What each request carries besides: a backend's API key, say. Never printed.
    package let headers: [Header]

    package struct Header: Hashable, Sendable {
        package var name: String
        package var value: String
    }

    /// The path OTLP/HTTP takes traces at, under a base URL.
    package static let tracesPath = "/v1/traces"

    /// The endpoint at `base`, traces going to its path with `/v1/traces`
    /// added (a URL that already ends in it is taken as it is).
    package init(base: String, headers: String? = nil) throws(OTLPEndpointError) {
        let url = try Self.url(base)
        let path = url.path()
        if path.hasSuffix(Self.tracesPath) {
            tracesURL = base
        } else {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.path = (path.hasSuffix("/") ? String(path.dropLast()) : path) + Self.tracesPath
            guard let joined = components?.string else { throw .notAnEndpoint(RedactedURL(text: base).description) }
            tracesURL = joined
        }
        self.headers = try Self.headers(headers ?? "")
    }

    /// The endpoint whose traces URL is `traces`, as it is.
    package init(traces: String, headers: String? = nil) throws(OTLPEndpointError) {
        _ = try Self.url(traces)
        tracesURL = traces
        self.headers = try Self.headers(headers ?? "")
    }

    /// The traces URL with its secrets hidden: how the endpoint is named
    /// in messages, and what a file remembers its pushes to it by.
    package var shown: String { RedactedURL(text: tracesURL).description }

    /// The host, and the port when the URL names one: how a failure to
    /// reach the endpoint names it.
    package var authority: String {
        guard let url = URL(string: tracesURL), let host = url.host() else { return shown }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    private static func url(_ text: String) throws(OTLPEndpointError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(), !host.isEmpty
        else { throw .notAnEndpoint(RedactedURL(text: text).description) }
        return url
    }

    /// `name=value` pairs separated by commas, spaces around them ignored,
    /// values percent-decoded (the W3C Baggage format the specification
    /// names; a `+` stays a `+`, as API keys in base64 need).
    private static func headers(_ text: String) throws(OTLPEndpointError) -> [Header] {
        var headers: [Header] = []
        for (index, pair) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let trimmed = trimmingSpaces(pair)
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "="),
                  case let name = String(trimmingSpaces(trimmed[..<equals])), !name.isEmpty,
                  name.utf8.allSatisfy(isTokenByte),
                  case let value = RedactedURL.formDecoded(String(trimmingSpaces(trimmed[trimmed.index(after: equals)...])), plusIsSpace: false),
                  !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else { throw .malformedHeader(number: index + 1) }
            headers.append(Header(name: name, value: value))
        }
        return headers
    }

    private static func trimmingSpaces(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        return text.drop(while: isSpace).reversed().drop(while: isSpace).reversed().isEmpty
            ? "" : text[text.firstIndex { !isSpace($0) }!...text.lastIndex { !isSpace($0) }!]
    }

    /// A byte HTTP allows in a header's name (RFC 9110's `tchar`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// Why an OTLP endpoint was refused; the words never hold a header's value
/// or a password.
package enum OTLPEndpointError: Error, Hashable, Sendable {
    /// Not an http:// or https:// URL with a host (shown with its secrets hidden).
    case notAnEndpoint(String)
    /// The headers' pair at `number` (1-based) is not `name=value`.
    case malformedHeader(number: Int)
}
