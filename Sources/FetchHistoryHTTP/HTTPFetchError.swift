import FetchHistory
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why the HTTP source did not give a number. The message is what the
/// screen shows and the history records: it never contains the URL, whose
/// query may hold a secret.
public enum HTTPFetchError: Error, Equatable, LocalizedError, SourceResponseError {
    /// The server answered with a status outside 200…299.
    case status(SourceResponse)
    /// A 2xx body that is not an integer, a JSON number, or an object with a
    /// numeric `number` or `value`, asked for as a number (`fetchAnswer()`).
    /// Holds the body's first 80 characters, made safe to print.
    case notANumber(preview: String, SourceResponse)
    /// A 2xx body that is neither JSON nor an integer in plain text, asked
    /// for as any value (`fetchValue()`). Holds the body's first 80
    /// characters and its Content-Type, if it had one, made safe to print.
    case notJSON(preview: String, contentType: String?, SourceResponse)
    /// The body passed the size cap; reading stopped there.
    case bodyTooLarge(limit: Int, SourceResponse)
    /// The request never got a response: refused, unknown host, TLS, …
    case transport(String)

    public var errorDescription: String? {
        switch self {
        case .status(let response): "HTTP \(response.status)"
        case .notANumber(let preview, _): "response is not a number: \"\(preview)\""
        case .notJSON(let preview, let contentType, let response):
            (response.bytes == 0 ? "response is empty" : "response is neither JSON nor a number: \"\(preview)\"")
                + (contentType.map { " (Content-Type: \($0))" } ?? "")
        case .bodyTooLarge(let limit, _): "response is larger than \(Self.format(bytes: limit))"
        case .transport(let message): message
        }
    }

    public var response: SourceResponse? {
        switch self {
        case .status(let response), .notANumber(_, let response), .notJSON(_, _, let response),
             .bodyTooLarge(_, let response): response
        case .transport: nil
        }
    }

    /// A body that is not a number, as `notANumber` says it.
    package static func notANumber(_ body: some Collection<UInt8>, _ response: SourceResponse) -> HTTPFetchError {
        .notANumber(preview: preview(of: body), response)
    }

    /// A body that is neither JSON nor a number, as `notJSON` says it.
    package static func notJSON(_ body: some Collection<UInt8>, contentType: String?, _ response: SourceResponse) -> HTTPFetchError {
        .notJSON(preview: preview(of: body), contentType: contentType.map { String($0.prefix(80)).terminalSafe }, response)
    }

    /// The body's first 80 characters, without the white space around them:
    /// a server's text, so control characters are shown as escapes.
    private static func preview(of body: some Collection<UInt8>) -> String {
        let text = String(decoding: body.prefix(4 * 80), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(text.prefix(80)).terminalSafe
    }

    /// A transport failure in words, naming the host but not the rest of the URL.
    ///
    /// URLSession on Linux (libcurl underneath) reports some failures
    /// under codes that say little; measured with Swift 6.3.1:
    /// - a TLS handshake that fails (an https URL to a plain-http server)
    ///   is `-1` (unknown), with OpenSSL's reason in the description;
    /// - any URL whose host is an IPv6 literal (`http://[::1]:8080/`) is
    ///   `-1000` (bad URL) before a connection is tried, listening or not
    ///   (swift-corelibs-foundation issue 5496).
    static func transport(_ error: URLError, host: String) -> HTTPFetchError {
        let message = switch error.code {
        case .cannotConnectToHost: "connection refused by \(host)"
        case .cannotFindHost, .dnsLookupFailed: "host not found: \(host)"
        case .timedOut: "\(host) stopped answering (idle timeout)"
        case .networkConnectionLost: "connection to \(host) lost"
        case .notConnectedToInternet: "no network connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            "TLS handshake with \(host) failed (\(error.code.rawValue))"
        case .unknown where tlsReason(error) != nil:
            "TLS handshake with \(host) failed: \(tlsReason(error) ?? "")"
        case .badURL where host.contains(":"):
            "cannot fetch from an IPv6 address written in the URL ([\(host)]): URLSession on Linux refuses it; use a host name that resolves to it"
        case .badServerResponse: "\(host) sent a malformed response"
        default: "network error \(error.code.rawValue) talking to \(host)"
        }
        return .transport(message)
    }

    /// OpenSSL's reason for a failed handshake, from libcurl's message
    /// (`OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number`),
    /// with a hint for the commonest one. Only OpenSSL's words are kept:
    /// nothing of the URL.
    private static func tlsReason(_ error: URLError) -> String? {
        let text = error.localizedDescription
        guard text.contains("SSL") || text.contains("TLS") else { return nil }
        let reason = text.components(separatedBy: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !reason.isEmpty else { return "TLS error" }
        // A plain-http server answers a ClientHello with text, not a TLS record.
        return reason == "wrong version number" ? "\(reason) (does the server speak plain http?)" : reason
    }

    private static func format(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
