import FetchHistory
import FetchHistoryAsyncHTTP
import FetchHistoryHTTP
import FetchHistoryTesting
import Foundation
import LoopbackServers
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The library's two HTTP clients, one per transport, for the tests that
/// prove both behave the same: `HTTPNumberClient` (URLSession) against the
/// kit's `URLProtocolStub`, `AsyncHTTPNumberClient` (AsyncHTTPClient)
/// against a real server on 127.0.0.1.
enum HTTPClientUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    /// A server that answers each request with `reply()`.
    func server(_ reply: @escaping @Sendable () -> ServerReply) throws -> TestHTTPServer {
        switch self {
        case .urlSession:
            TestHTTPServer(stub: URLProtocolStub { _ in
                switch reply() {
                case .answer(let status, let body, let contentType):
                    .respond(status: status, body: body, headers: contentType.map { ["Content-Type": $0] } ?? [:])
                case .hang: try await waitUntilCancelled()
                }
            })
        case .asyncHTTPClient:
            TestHTTPServer(server: try LocalHTTPServer { _ in
                switch reply() {
                case .answer(let status, let body, let contentType): .answer(status: status, contentType: contentType, body: body)
                case .hang: .hang
                }
            })
        }
    }

    /// A client of this transport for `url`, which no server needs to serve.
    func client(url: URL) -> any HTTPSourceClient {
        switch self {
        case .urlSession: HTTPNumberClient(url: url)
        case .asyncHTTPClient: AsyncHTTPNumberClient(url: url)
        }
    }
}

/// What a test server does with a request.
enum ServerReply: Sendable {
    /// Answers with a status, a body and a Content-Type (none when nil).
    case answer(status: Int, body: Data, contentType: String? = nil)
    /// Never answers: the request ends when the client lets go of it.
    case hang

    /// A 200 answer with a UTF-8 body.
    static func ok(_ body: String) -> ServerReply {
        .answer(status: 200, body: Data(body.utf8))
    }
}

/// Both clients, as the tests use them.
protocol HTTPSourceClient: APIClient {
    nonisolated var url: URL { get }
    nonisolated var source: String { get }
}

extension HTTPNumberClient: HTTPSourceClient {}
extension AsyncHTTPNumberClient: HTTPSourceClient {}

/// A server of one transport's tests, and clients that reach it.
final class TestHTTPServer: Sendable {
    private let stub: URLProtocolStub?
    private let server: LocalHTTPServer?

    init(stub: URLProtocolStub) {
        self.stub = stub
        server = nil
    }

    init(server: LocalHTTPServer) {
        stub = nil
        self.server = server
    }

    deinit {
        server?.stop()
    }

    /// The host in this server's URLs: the stub's own, or 127.0.0.1.
    var host: String { stub?.host ?? "127.0.0.1" }

    /// A URL of this server: `https://stub-….test` + `path` for the stub,
    /// `http://127.0.0.1:PORT` + `path` for the real one; `userInfo`
    /// (`user:password`) before the host.
    func url(_ path: String = "/next?page=2", userInfo: String? = nil) -> URL {
        let user = userInfo.map { "\($0)@" } ?? ""
        let origin = if let server { "http://\(user)127.0.0.1:\(server.port)" } else { "https://\(user)\(host)" }
        return URL(string: origin + path)!
    }

    /// A client of this server's transport for `url` (by default `url()`),
    /// keeping `keptBodyBytes` of a failed answer's body.
    func client(
        url: URL? = nil, maximumBytes: Int = HTTPNumberClient.defaultMaximumBytes, keptBodyBytes: Int = ResponseBody.defaultLimit
    ) -> any HTTPSourceClient {
        let url = url ?? self.url()
        if let stub {
            return HTTPNumberClient(url: url, configuration: stub.configuration, maximumBytes: maximumBytes, keptBodyBytes: keptBodyBytes)
        }
        return AsyncHTTPNumberClient(url: url, maximumBytes: maximumBytes, keptBodyBytes: keptBodyBytes)
    }

    /// The `number`th request (1 for the first), waiting for it to arrive.
    func waitForRequest(_ number: Int = 1) async throws -> SentRequest {
        if let stub { return SentRequest(try await stub.waitForRequest(number)) }
        let server = server!
        return SentRequest(try await withTimeout { await server.request(number) })
    }
}

/// A request as the server saw it.
struct SentRequest {
    var method: String
    /// The path and query: `/next?page=2`.
    var target: String
    var headerFields: [String: String]

    init(_ request: URLRequest) {
        method = request.httpMethod ?? ""
        let url = request.url
        target = (url?.path(percentEncoded: true) ?? "") + (url?.query(percentEncoded: true).map { "?\($0)" } ?? "")
        headerFields = request.allHTTPHeaderFields ?? [:]
    }

    init(_ request: ReceivedRequest) {
        method = request.method
        target = request.target
        headerFields = Dictionary(request.headerFields.map { ($0.name, $0.value) }) { first, _ in first }
    }

    /// The value of the header field `name` (any case), if it was sent.
    func value(forHeaderField name: String) -> String? {
        headerFields.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
