import FetchHistory
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP source: GETs a URL and reads the answer from the body.
///
/// `fetchValue()` takes any JSON answer, or an integer in plain text, as
/// the history records it; `fetchAnswer()`, for a screen of numbers, a body
/// that is an integer (white space around it allowed), a JSON number with no
/// fraction, or a JSON object with a numeric `number` or `value` (see
/// `NumberBody`). Anything else, and a status outside 2xx, fails with an
/// `HTTPFetchError`. The body is read as it arrives and the request is
/// cancelled once it passes `maximumBytes`, so a huge or endless body costs
/// at most that much memory.
///
/// ```swift
/// let client = HTTPNumberClient(url: URL(string: "https://example.com/number")!)
/// let answer = try await client.fetchAnswer()   // value, status, size
/// let value = try await client.fetchValue()     // {"id":7,"name":"Ada"}, status, size
/// ```
///
/// Cancelling the calling task cancels the request and throws
/// `CancellationError`.
public actor HTTPNumberClient: APIClient {
    /// 1 MiB.
    public static let defaultMaximumBytes = 1 << 20

    public nonisolated let url: URL
    /// The URL with its secrets replaced: what the history records.
    public nonisolated let source: String
    private let configuration: URLSessionConfiguration
    private let maximumBytes: Int

    /// - Parameters:
    ///   - configuration: the session configuration; tests register a
    ///     `URLProtocol` in its `protocolClasses`.
    ///   - maximumBytes: the largest body accepted.
    public init(
        url: URL, configuration: URLSessionConfiguration = .ephemeral, maximumBytes: Int = defaultMaximumBytes
    ) {
        // `HTTP://` works as `http://` (URLSession on Linux refuses it).
        self.url = url.withLowercaseScheme
        self.source = RedactedURL(self.url).description
        self.configuration = configuration
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
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json, text/plain;q=0.9, */*;q=0.1", forHTTPHeaderField: "Accept")
        request.setValue("fetch-history", forHTTPHeaderField: "User-Agent")
        let body = try await download(request)
        let response = SourceResponse(status: body.status, bytes: body.data.count)
        guard (200...299).contains(body.status) else { throw HTTPFetchError.status(response) }
        return (body, response)
    }

    private func download(_ request: URLRequest) async throws -> DownloadedBody {
        let collector = BodyCollector(limit: maximumBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        let host = url.host ?? "the server"
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
            // Cancelling the task surfaces as URLError(.cancelled) on Linux.
            if error.code == .cancelled { throw CancellationError() }
            throw HTTPFetchError.transport(error, host: host)
        }
    }
}

/// What a request brought: the body (up to the cap), the status and the
/// Content-Type, if any. Both HTTP clients read answers from it.
package struct DownloadedBody: Sendable {
    package var data = Data()
    package var status = 0
    package var contentType: String?

    package init(data: Data = Data(), status: Int = 0, contentType: String? = nil) {
        self.data = data
        self.status = status
        self.contentType = contentType
    }
}

extension DownloadedBody {
    /// The body read as a number, as both clients' `fetchAnswer()` give it.
    package func number(_ response: SourceResponse) throws(HTTPFetchError) -> SourceAnswer<Int> {
        guard let value = NumberBody.number(in: data) else { throw .notANumber(data, response) }
        return SourceAnswer(value: value, response: response)
    }

    /// The body read as the history records it, as both clients' `fetchValue()` give it.
    package func value(_ response: SourceResponse) throws(HTTPFetchError) -> SourceAnswer<FetchValue> {
        guard let value = NumberBody.value(in: data) else { throw .notJSON(data, contentType: contentType, response) }
        return SourceAnswer(value: value, response: response)
    }
}

/// Collects one data task's body up to a limit and resumes the waiting
/// fetch when the task completes.
///
/// The task may complete before the fetch waits: when the calling task is
/// already cancelled, `withTaskCancellationHandler` cancels the data task
/// before `start`, and URLSession completes it on its own queues. The
/// outcome is then kept for `start`, or the fetch would wait forever.
final class BodyCollector: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var body = DownloadedBody()
        var overflowed = false
        var continuation: CheckedContinuation<DownloadedBody, any Error>?
        /// The outcome of a task that completed before `start`.
        var early: Result<DownloadedBody, any Error>?
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
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
        let overflowed = state.withLock { state -> Bool in
            guard !state.overflowed else { return false }
            state.body.data.append(data)
            if state.body.data.count > limit {
                state.overflowed = true
                return true
            }
            return false
        }
        if overflowed { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<DownloadedBody, any Error>?, Result<DownloadedBody, any Error>) in
            defer { state.continuation = nil }
            let result: Result<DownloadedBody, any Error>
            if state.overflowed {
                let response = SourceResponse(status: state.body.status, bytes: state.body.data.count)
                result = .failure(HTTPFetchError.bodyTooLarge(limit: limit, response))
            } else if let error {
                result = .failure(error)
            } else {
                result = .success(state.body)
            }
            if state.continuation == nil { state.early = result }
            return (state.continuation, result)
        }
        continuation?.resume(with: result)
    }
}
