/// Why a request got no answer, as a transport reports it. Each transport
/// maps its own errors (`URLError`, SwiftNIO's) to one of these; the words
/// are here, once, so both say the same thing the same way
/// (`HTTPFetchError.transport`).
///
/// ```swift
/// TransportFailure.connectionRefused.sentence(host: "127.0.0.1")   // connection refused by 127.0.0.1
/// ```
package enum TransportFailure: Error, Hashable, Sendable {
    /// Nothing listens at the port.
    case connectionRefused
    /// The name does not resolve.
    case hostNotFound
    /// The server went silent for longer than the transport's idle time.
    case idleTimeout
    /// The connection broke before the answer was complete.
    case connectionLost
    /// No route to any network.
    case noNetworkConnection
    /// The TLS handshake failed, and the transport gave only a code.
    case tlsHandshakeCode(Int)
    /// The TLS handshake failed for a reason in OpenSSL's words (`wrong
    /// version number`), nil when the transport gave none.
    case tlsHandshake(reason: String?)
    /// The URL's host is an IPv6 literal, which URLSession on Linux refuses
    /// before trying to connect (swift-corelibs-foundation issue 5496).
    case ipv6LiteralRefused
    /// What came back was not HTTP.
    case malformedResponse
    /// Anything else, with the transport's code when it has one.
    case networkError(code: Int?)

    /// The failure in words, naming `host` but not the rest of the URL.
    package func sentence(host: String) -> String {
        switch self {
        case .connectionRefused: "connection refused by \(host)"
        case .hostNotFound: "host not found: \(host)"
        case .idleTimeout: "\(host) stopped answering (idle timeout)"
        case .connectionLost: "connection to \(host) lost"
        case .noNetworkConnection: "no network connection"
        case .tlsHandshakeCode(let code): "TLS handshake with \(host) failed (\(code))"
        case .tlsHandshake(reason: let reason?) where reason == "wrong version number":
            // A plain-http server answers a ClientHello with text, not a TLS record.
            "TLS handshake with \(host) failed: \(reason) (does the server speak plain http?)"
        case .tlsHandshake(reason: let reason): "TLS handshake with \(host) failed: \(reason ?? "TLS error")"
        case .ipv6LiteralRefused:
            "cannot fetch from an IPv6 address written in the URL ([\(host)]): URLSession on Linux refuses it; use a host name that resolves to it"
        case .malformedResponse: "\(host) sent a malformed response"
        case .networkError(let code?): "network error \(code) talking to \(host)"
        case .networkError(nil): "network error talking to \(host)"
        }
    }
}
