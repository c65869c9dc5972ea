import FetchHistoryModel
import FoundationEssentials

/// The HTTP source, whatever carries it: GETs a URL and reads the answer
/// from the body. `HTTPNumberClient` (URLSession) and
/// `AsyncHTTPNumberClient` (AsyncHTTPClient) are this over their transport,
/// so both send the same request, keep the same cap, accept the same
/// statuses, read the same bodies and fail in the same words.
///
/// - The URL's scheme is lowered (`HTTP://` works as `http://`) and its
///   secrets are replaced in `source`, what the history records.
/// - A status outside 2xx fails with `HTTPFetchError.status`, a body over
///   the cap with `.bodyTooLarge`, an unreadable one with `.notANumber` or
///   `.notJSON`, no answer at all with `.transport` (see
///   `TransportFailure`). An answer that fails keeps the first
///   `keptBodyBytes` of its body, secrets hidden, in its response
///   (`SourceResponse.body`); one that succeeds keeps only its value.
/// - Cancelling the calling task stops the request and throws
///   `CancellationError`.
///
/// ```swift
/// let http = HTTPNumberSource(url: url, maximumBytes: HTTPGetRequest.defaultMaximumBytes, transport: transport)
/// let answer = try await http.fetchAnswer()   // value, status, size
/// ```
package struct HTTPNumberSource<Transport: HTTPTransport>: Sendable {
    /// The URL fetched, its scheme in lower case.
    package let url: URL
    /// The URL with its secrets replaced: what the history records.
    package let source: String
    /// How much of a failed answer's body is kept (0: none).
    package let keptBodyBytes: Int
    private let request: HTTPGetRequest
    private let transport: Transport

    package init(url: URL, maximumBytes: Int, keptBodyBytes: Int = ResponseBody.defaultLimit, transport: Transport) {
        self.keptBodyBytes = keptBodyBytes
        // `HTTP://` works as `http://` (URLSession on Linux refuses it).
        self.url = url.withLowercaseScheme
        source = RedactedURL(self.url).description
        request = HTTPGetRequest(url: self.url, maximumBytes: maximumBytes)
        self.transport = transport
    }

    /// The body read as a number (see `NumberBody.number(in:)`), with the
    /// status and size.
    package func fetchAnswer() async throws -> SourceAnswer<Int> {
        try await successfulBody().number(keepingBody: keptBodyBytes)
    }

    /// The answer as the history records it: any JSON value, or an integer
    /// in plain text (see `NumberBody.value(in:)`).
    package func fetchValue() async throws -> SourceAnswer<FetchValue> {
        try await successfulBody().value(keepingBody: keptBodyBytes)
    }

    /// The whole body of a 2xx answer.
    private func successfulBody() async throws -> DownloadedBody {
        let body: DownloadedBody
        do {
            body = try await transport.send(request)
        } catch {
            throw failure(error)
        }
        if body.isOverLimit {
            throw HTTPFetchError.bodyTooLarge(limit: request.maximumBytes, body.failedResponse(keepingBody: keptBodyBytes))
        }
        guard (200...299).contains(body.status) else { throw HTTPFetchError.status(body.failedResponse(keepingBody: keptBodyBytes)) }
        return body
    }

    /// What a transport's error means to the caller.
    private func failure(_ error: any Error) -> any Error {
        // A cancelled request ends in the transport's own error
        // (URLError.cancelled, HTTPClientError.cancelled): it was a cancellation.
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        let failure = error as? TransportFailure ?? .networkError(code: nil)
        return HTTPFetchError.transport(failure, host: url.host ?? "the server")
    }
}
