import AsyncHTTPClient
import FetchHistory
import FetchHistoryHTTP
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTP source on SwiftNIO: `HTTPNumberClient`'s behaviour — the same
/// numbers and values read from the same bodies, the same size cap, the same errors in
/// the same words, cancellation as `CancellationError` — on
/// AsyncHTTPClient, whose wait for an answer sleeps in `epoll_wait`.
/// URLSession on Linux drives libcurl from timers instead: a fetch waiting
/// 3 s for a slow server used about 2 s of processor time.
///
/// `HTTPNumberClient` (URLSession) stays the HTTP source apps use on Apple
/// platforms; the commands use this one.
///
/// ```swift
/// let answer = try await AsyncHTTPNumberClient(url: URL(string: "http://127.0.0.1:8080/n")!).fetchAnswer()
/// ```
public actor AsyncHTTPNumberClient: APIClient {
    public nonisolated let url: URL
    /// The URL with its secrets replaced: what the history records.
    public nonisolated let source: String
    private let maximumBytes: Int

    /// One client for the process, never shut down: a command's life is
    /// the client's. Its read timeout is URLSession's default idle timeout
    /// (60 s), so a server that stops answering is reported the same way.
    /// A refused connection fails at once, as URLSession's does, rather
    /// than being tried again until the connect timeout.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            certificateVerification: .fullVerification,
            redirectConfiguration: .follow(max: 10, allowCycles: false),
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(60), read: .seconds(60)),
            decompression: .disabled
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public init(url: URL, maximumBytes: Int = HTTPNumberClient.defaultMaximumBytes) {
        // `HTTP://` works as `http://`.
        self.url = url.withLowercaseScheme
        source = RedactedURL(self.url).description
        self.maximumBytes = maximumBytes
    }

    public func fetchRandomNumber() async throws -> Int {
        try await fetchAnswer().value
    }

    public func fetchAnswer() async throws -> SourceAnswer<Int> {
        let (body, response) = try await successfulBody()
        return try body.number(response)
    }

    /// The answer as the history records it: any JSON value, or an integer
    /// in plain text (see `NumberBody.value(in:)`).
    public func fetchValue() async throws -> SourceAnswer<FetchValue> {
        let (body, response) = try await successfulBody()
        return try body.value(response)
    }

    /// The body of a 2xx answer, and what is recorded of it.
    private func successfulBody() async throws -> (DownloadedBody, SourceResponse) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json, text/plain;q=0.9, */*;q=0.1")
        request.headers.add(name: "User-Agent", value: "fetch-history")
        let host = url.host ?? "the server"
        let body: DownloadedBody
        do {
            body = try await download(request)
        } catch let error as HTTPFetchError {
            throw error
        } catch {
            if Task.isCancelled || error is CancellationError || (error as? HTTPClientError) == .cancelled {
                throw CancellationError()
            }
            throw HTTPFetchError.transport(Self.sentence(error, host: host))
        }
        let response = SourceResponse(status: body.status, bytes: body.data.count)
        guard (200...299).contains(body.status) else { throw HTTPFetchError.status(response) }
        return (body, response)
    }

    /// The body, read as it arrives and no further than the cap, the status
    /// and the Content-Type.
    private func download(_ request: HTTPClientRequest) async throws -> DownloadedBody {
        let response = try await Self.client.execute(request, timeout: .hours(24 * 365))
        let status = Int(response.status.code)
        var body: [UInt8] = []
        for try await chunk in response.body {
            body.append(contentsOf: chunk.readableBytesView)
            if body.count > maximumBytes {
                // Leaving the loop lets go of the body: the connection is closed.
                throw HTTPFetchError.bodyTooLarge(limit: maximumBytes, SourceResponse(status: status, bytes: body.count))
            }
        }
        return DownloadedBody(data: Data(body), status: status, contentType: response.headers.first(name: "Content-Type"))
    }

    /// A transport failure in the words `HTTPNumberClient` uses, naming
    /// the host but not the rest of the URL.
    static func sentence(_ error: any Error, host: String) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return "\(host) stopped answering (idle timeout)"
            case .connectTimeout: return "\(host) stopped answering (idle timeout)"
            case .remoteConnectionClosed: return "connection to \(host) lost"
            case .invalidURL, .emptyHost, .missingSocketPath: return "network error -1000 talking to \(host)"
            default: break
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty { return "host not found: \(host)" }
            if let first = error.connectionErrors.first { return sentence(first.error, host: host) }
            return "host not found: \(host)"
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "connection refused by \(host)"
            case ENETUNREACH, EHOSTUNREACH: return "no network connection"
            case ECONNRESET, EPIPE: return "connection to \(host) lost"
            default: return "network error \(error.errnoCode) talking to \(host)"
            }
        }
        if let error = error as? NIOSSLError {
            return "TLS handshake with \(host) failed: \(tlsReason(String(reflecting: error)))"
        }
        if let error = error as? BoringSSLError {
            return "TLS handshake with \(host) failed: \(tlsReason(String(reflecting: error)))"
        }
        if error is HTTPParserError {
            return "\(host) sent a malformed response"
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return "\(host) stopped answering (idle timeout)"
        }
        return "network error talking to \(host)"
    }

    /// BoringSSL's reason in OpenSSL's words, with the hint
    /// `HTTPNumberClient` gives for the commonest one.
    private static func tlsReason(_ text: String) -> String {
        if text.contains("WRONG_VERSION_NUMBER") { return "wrong version number (does the server speak plain http?)" }
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return "certificate verify failed" }
        return "TLS error"
    }
}
