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
    /// numeric `number` or `value`. Holds the body's first 80 characters.
    case notANumber(preview: String, SourceResponse)
    /// The body passed the size cap; reading stopped there.
    case bodyTooLarge(limit: Int, SourceResponse)
    /// The request never got a response: refused, unknown host, TLS, …
    case transport(String)

    public var errorDescription: String? {
        switch self {
        case .status(let response): "HTTP \(response.status)"
        case .notANumber(let preview, _): "response is not a number: \"\(preview)\""
        case .bodyTooLarge(let limit, _): "response is larger than \(Self.format(bytes: limit))"
        case .transport(let message): message
        }
    }

    public var response: SourceResponse? {
        switch self {
        case .status(let response), .notANumber(_, let response), .bodyTooLarge(_, let response): response
        case .transport: nil
        }
    }

    /// A transport failure in words, naming the host but not the rest of the URL.
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
        case .badServerResponse: "\(host) sent a malformed response"
        default: "network error \(error.code.rawValue) talking to \(host)"
        }
        return .transport(message)
    }

    private static func format(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
