import FoundationEssentials

/// What carries the HTTP source's request and brings its answer back:
/// URLSession (`HTTPNumberClient`, for apps) or AsyncHTTPClient (the
/// commands). A transport only moves bytes; the request, the size cap, the
/// status, the reading of the answer and the words of every error are
/// `HTTPNumberSource`'s, the same whatever carries them.
///
/// ```swift
/// struct CannedTransport: HTTPTransport {
///     func send(_ request: HTTPGetRequest) async throws -> DownloadedBody {
///         var body = DownloadedBody(status: 200, limit: request.maximumBytes)
///         _ = body.append(Array("42".utf8))
///         return body
///     }
/// }
/// ```
package protocol HTTPTransport: Sendable {
    /// Sends `request` and returns its answer: the status, the Content-Type
    /// and the body, appended as it arrives to a `DownloadedBody` of
    /// `request.maximumBytes`. When `append` returns false the body has
    /// passed the cap: stop the request and return what was read.
    ///
    /// Throws a `TransportFailure` when no complete answer came. When the
    /// calling task is cancelled, stop the request and throw anything: an
    /// error thrown after cancellation is reported as `CancellationError`.
    func send(_ request: HTTPGetRequest) async throws -> DownloadedBody
}

/// The one request the HTTP source sends: a GET of `url` that asks for
/// JSON, and how much of the answer to read.
package struct HTTPGetRequest: Sendable {
    /// 1 MiB.
    package static let defaultMaximumBytes = 1 << 20

    package let url: URL
    /// The request's header fields, in order.
    package let headerFields: [(name: String, value: String)] = [
        ("Accept", "application/json, text/plain;q=0.9, */*;q=0.1"),
        ("User-Agent", "fetch-history"),
    ]
    /// The largest body accepted; reading stops once the body passes it.
    package let maximumBytes: Int

    package init(url: URL, maximumBytes: Int) {
        self.url = url
        self.maximumBytes = maximumBytes
    }
}
