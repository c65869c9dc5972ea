import FetchHistory
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stubbed server does with one request.
public enum StubbedResponse: Sendable {
    /// Answers with a status, a body and headers.
    case respond(status: Int, body: Data, headers: [String: String] = [:])
    /// Fails the request as the network would.
    case fail(URLError)

    /// A 200 answer with a UTF-8 body.
    public static func ok(_ body: String) -> StubbedResponse {
        .respond(status: 200, body: Data(body.utf8))
    }
}

/// Intercepts the requests of a `URLSession` built from `configuration` to
/// the stub's own host, answering each with `handler`, and lets the test
/// watch them arrive.
///
/// ```swift
/// let stub = URLProtocolStub { _ in .ok("42") }
/// let url = URL(string: "https://\(stub.host)/number?page=2")!
/// let client = HTTPNumberClient(url: url, configuration: stub.configuration)
/// async let answer = client.fetchAnswer()
/// let request = try await stub.waitForRequest()   // the GET, as sent
/// ```
///
/// The handler may suspend (await a continuation, sleep on a test clock) to
/// play a slow server; cancelling the request cancels the handler's task.
/// Several stubs can be used at once: each has a host of its own (on Linux a
/// `URLProtocol` sees neither the session nor its extra headers, only the
/// request, so the host is what tells stubs apart).
public final class URLProtocolStub: Sendable {
    public typealias Handler = @Sendable (URLRequest) async throws -> StubbedResponse

    /// Every intercepted request, in arrival order.
    public let requests: AsyncStream<URLRequest>
    private let continuation: AsyncStream<URLRequest>.Continuation
    private let handler: Handler
    private let log = RequestLog()
    /// The host this stub answers for, e.g. `stub-1a2b3c4d.test`.
    public let host = "stub-\(UUID().uuidString.prefix(8).lowercased()).test"

    public init(handler: @escaping Handler) {
        (requests, continuation) = AsyncStream.makeStream()
        self.handler = handler
        StubRegistry.shared.withLock { $0[host] = self }
    }

    deinit {
        continuation.finish()
        StubRegistry.shared.withLock { $0[host] = nil }
    }

    /// A configuration whose sessions are served by this stub.
    public var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return configuration
    }

    /// The `number`th request (1 for the first), waiting for it to arrive;
    /// fails with `TimeoutError` after `limit` of real time.
    public func waitForRequest(_ number: Int = 1, limit: Duration = TimeoutError.defaultLimit) async throws -> URLRequest {
        precondition(number >= 1, "waitForRequest(\(number)): requests are counted from 1")
        return try await withTimeout(limit) { [log] in await log.request(number) }
    }

    fileprivate func receive(_ request: URLRequest) async throws -> StubbedResponse {
        await log.append(request)
        continuation.yield(request)
        return try await handler(request)
    }

    fileprivate static func stub(for request: URLRequest) -> URLProtocolStub? {
        guard let host = request.url?.host else { return nil }
        return StubRegistry.shared.withLock { $0[host.lowercased()] }
    }
}

private actor RequestLog {
    private var requests: [URLRequest] = []
    private var waiters: [(number: Int, continuation: CheckedContinuation<URLRequest, Never>)] = []

    func append(_ request: URLRequest) {
        requests.append(request)
        let ready = waiters.filter { $0.number <= requests.count }
        waiters.removeAll { $0.number <= requests.count }
        for waiter in ready { waiter.continuation.resume(returning: requests[waiter.number - 1]) }
    }

    func request(_ number: Int) async -> URLRequest {
        if number <= requests.count { return requests[number - 1] }
        return await withCheckedContinuation { waiters.append((number, $0)) }
    }
}

private enum StubRegistry {
    static let shared = Mutex<[String: URLProtocolStub]>([:])
}

private final class StubURLProtocol: URLProtocol {
    private var work: Task<Void, Never>?
    /// Set by `stopLoading`. A stopped protocol must not call its client:
    /// URLSession has failed the task and may have dropped it from its
    /// registry, and on Linux a later `urlProtocolDidFinishLoading` stops
    /// the process ("Trying to access a behaviour for a task that in not in
    /// the registry"). It happened when the client cancelled a body over its
    /// cap between the stub's `didLoad` and `didFinishLoading`.
    private let stopped = Mutex(false)

    override class func canInit(with request: URLRequest) -> Bool {
        URLProtocolStub.stub(for: request) != nil
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let stub = URLProtocolStub.stub(for: request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        let request = self.request
        // URLProtocol is not Sendable; its client may be called from any
        // thread, which is what a real protocol does too.
        let this = UncheckedSendable(self)
        work = Task {
            let `self` = this.value
            do {
                switch try await stub.receive(request) {
                case .respond(let status, let body, let headers):
                    guard let url = request.url,
                          let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
                    else { return }
                    self.deliver { $0.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
                    self.deliver { $0.urlProtocol(self, didLoad: body) }
                    self.deliver { $0.urlProtocolDidFinishLoading(self) }
                case .fail(let error):
                    self.deliver { $0.urlProtocol(self, didFailWithError: error) }
                }
            } catch {
                self.deliver { $0.urlProtocol(self, didFailWithError: URLError(.unknown)) }
            }
        }
    }

    override func stopLoading() {
        stopped.withLock { $0 = true }
        work?.cancel()
    }

    /// Makes one call to the client, unless loading has stopped. The lock is
    /// held through the call, so `stopLoading` (called on URLSession's work
    /// queue) waits for a call under way, and every later call is skipped.
    /// The client's calls queue work for the delegate and never wait for that
    /// work queue, so holding the lock cannot deadlock with it.
    private func deliver(_ call: (any URLProtocolClient) -> Void) {
        stopped.withLock { stopped in
            guard !stopped, let client else { return }
            call(client)
        }
    }
}

private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
