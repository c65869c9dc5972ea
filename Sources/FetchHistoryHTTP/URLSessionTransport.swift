import FetchHistoryHTTPCore
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP source's bytes over URLSession: one session per request, its
/// delegate filling the answer as the data arrives, the task cancelled once
/// the body passes the cap or the calling task is cancelled.
struct URLSessionTransport: HTTPTransport {
    let configuration: URLSessionConfiguration

    func send(_ request: HTTPGetRequest) async throws -> DownloadedBody {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        for field in request.headerFields { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        let collector = BodyCollector(limit: request.maximumBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: urlRequest)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    collector.start(continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as URLError {
            throw TransportFailure(error, host: request.url.host ?? "")
        }
    }
}

extension TransportFailure {
    /// A URLSession failure as the HTTP source words it.
    ///
    /// URLSession on Linux (libcurl underneath) reports some failures
    /// under codes that say little; measured with Swift 6.3.1:
    /// - a TLS handshake that fails (an https URL to a plain-http server)
    ///   is `-1` (unknown), with OpenSSL's reason in the description;
    /// - any URL whose host is an IPv6 literal (`http://[::1]:8080/`) is
    ///   `-1000` (bad URL) before a connection is tried, listening or not
    ///   (swift-corelibs-foundation issue 5496).
    init(_ error: URLError, host: String) {
        self = switch error.code {
        case .cannotConnectToHost: .connectionRefused
        case .cannotFindHost, .dnsLookupFailed: .hostNotFound
        case .timedOut: .idleTimeout
        case .networkConnectionLost: .connectionLost
        case .notConnectedToInternet: .noNetworkConnection
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            .tlsHandshakeCode(error.code.rawValue)
        case .unknown where Self.isTLSFailure(error): .tlsHandshake(reason: Self.openSSLReason(error))
        case .badURL where host.contains(":"): .ipv6LiteralRefused
        case .badServerResponse: .malformedResponse
        default: .networkError(code: error.code.rawValue)
        }
    }

    /// libcurl's message for a failed handshake names SSL or TLS.
    private static func isTLSFailure(_ error: URLError) -> Bool {
        let text = error.localizedDescription
        return text.contains("SSL") || text.contains("TLS")
    }

    /// OpenSSL's reason for a failed handshake, from libcurl's message
    /// (`OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number`).
    /// Only OpenSSL's words are kept: nothing of the URL.
    private static func openSSLReason(_ error: URLError) -> String? {
        let reason = error.localizedDescription.components(separatedBy: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""
        return reason.isEmpty ? nil : reason
    }
}

/// Collects one data task's answer up to a limit and resumes the waiting
/// fetch when the task completes.
///
/// The task may complete before the fetch waits: when the calling task is
/// already cancelled, `withTaskCancellationHandler` cancels the data task
/// before `start`, and URLSession completes it on its own queues. The
/// outcome is then kept for `start`, or the fetch would wait forever.
final class BodyCollector: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var body: DownloadedBody
        var continuation: CheckedContinuation<DownloadedBody, any Error>?
        /// The outcome of a task that completed before `start`.
        var early: Result<DownloadedBody, any Error>?
    }

    private let state: Mutex<State>

    init(limit: Int) {
        state = Mutex(State(body: DownloadedBody(limit: limit)))
    }

    func start(_ continuation: CheckedContinuation<DownloadedBody, any Error>) {
        let early = state.withLock { state -> Result<DownloadedBody, any Error>? in
            if state.early == nil { state.continuation = continuation }
            return state.early
        }
        if let early { continuation.resume(with: early) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let response = response as? HTTPURLResponse
        state.withLock { state in
            state.body.status = response?.statusCode ?? 0
            state.body.contentType = response?.value(forHTTPHeaderField: "Content-Type")
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let readOn = state.withLock { state in state.body.append(data) }
        if !readOn { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<DownloadedBody, any Error>?, Result<DownloadedBody, any Error>) in
            defer { state.continuation = nil }
            // A body over the cap ends in the error of its cancelled task:
            // what was read is the answer, and too large.
            let result: Result<DownloadedBody, any Error> = if let error, !state.body.isOverLimit {
                .failure(error)
            } else {
                .success(state.body)
            }
            if state.continuation == nil { state.early = result }
            return (state.continuation, result)
        }
        continuation?.resume(with: result)
    }
}
