import AsyncHTTPClient
import FetchHistoryHTTPCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTP source's bytes over AsyncHTTPClient: the body read chunk by
/// chunk as it arrives, and let go of (the connection closed) once it
/// passes the cap.
struct AsyncHTTPClientTransport: HTTPTransport {
    /// One client for the process (the HTTP source's and `OTLPCollector`'s),
    /// never shut down: a command's life is the client's. Its read timeout
    /// is URLSession's default idle timeout (60 s), so a server that stops
    /// answering is reported the same way.
    /// A refused connection fails at once, as URLSession's does, rather
    /// than being tried again until the connect timeout.
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

    static let configuration: HTTPClient.Configuration = {
        var configuration = HTTPClient.Configuration(
            certificateVerification: .fullVerification,
            redirectConfiguration: .follow(max: 10, allowCycles: false),
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(60), read: .seconds(60)),
            decompression: .disabled
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        // The commands bootstrap no tracer; without this, every request
        // still works out the attributes of a span nobody receives.
        configuration.tracing.tracer = nil
        return configuration
    }()

    func send(_ request: HTTPGetRequest) async throws -> DownloadedBody {
        var clientRequest = HTTPClientRequest(url: request.url.absoluteString)
        clientRequest.method = .GET
        for field in request.headerFields { clientRequest.headers.add(name: field.name, value: field.value) }
        do {
            let response = try await Self.client.execute(clientRequest, timeout: .hours(24 * 365))
            var body = DownloadedBody(
                status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
                limit: request.maximumBytes
            )
            for try await chunk in response.body {
                // Past the cap, leaving the loop lets go of the body: the connection is closed.
                guard body.append(chunk.readableBytesView) else { break }
            }
            return body
        } catch {
            throw Self.failure(error)
        }
    }

    /// A failure of AsyncHTTPClient or SwiftNIO as the HTTP source words
    /// it, in the terms URLSession's failures are worded in.
    static func failure(_ error: any Error) -> TransportFailure {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .connectTimeout: return .idleTimeout
            case .remoteConnectionClosed: return .connectionLost
            // URLSession's code for a URL it cannot use.
            case .invalidURL, .emptyHost, .missingSocketPath: return .networkError(code: -1000)
            default: break
            }
        }
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return failure(first.error) }
            return .hostNotFound
        }
        if let error = error as? IOError {
            return switch error.errnoCode {
            case ECONNREFUSED: .connectionRefused
            case ENETUNREACH, EHOSTUNREACH: .noNetworkConnection
            case ECONNRESET, EPIPE: .connectionLost
            default: .networkError(code: Int(error.errnoCode))
            }
        }
        if let error = error as? NIOSSLError {
            return .tlsHandshake(reason: openSSLWords(String(reflecting: error)))
        }
        if let error = error as? BoringSSLError {
            return .tlsHandshake(reason: openSSLWords(String(reflecting: error)))
        }
        if error is HTTPParserError {
            return .malformedResponse
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return .idleTimeout
        }
        return .networkError(code: nil)
    }

    /// BoringSSL's reason in OpenSSL's words, as URLSession (libcurl on
    /// OpenSSL) gives it; nil for any other.
    private static func openSSLWords(_ text: String) -> String? {
        if text.contains("WRONG_VERSION_NUMBER") { return "wrong version number" }
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return "certificate verify failed" }
        return nil
    }
}
