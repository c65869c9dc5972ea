@_exported import FetchHistoryHTTPCore
import FetchHistory
import Foundation
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
///
/// It is the package's HTTP source (`HTTPNumberSource`) on URLSession: the
/// commands use the same source on AsyncHTTPClient, with the same answers
/// and errors.
public actor HTTPNumberClient: APIClient {
    /// 1 MiB.
    public static let defaultMaximumBytes = HTTPGetRequest.defaultMaximumBytes

    /// The URL fetched, its scheme in lower case.
    public nonisolated var url: URL { http.url }
    /// The URL with its secrets replaced: what the history records.
    public nonisolated var source: String { http.source }
    private nonisolated let http: HTTPNumberSource<URLSessionTransport>

    /// - Parameters:
    ///   - configuration: the session configuration; tests register a
    ///     `URLProtocol` in its `protocolClasses`.
    ///   - maximumBytes: the largest body accepted.
    ///   - keptBodyBytes: how much of a failed answer's body is kept in the
    ///     error's response (`SourceResponse.body`), secrets hidden: 1 KiB
    ///     by default, 0 for none.
    public init(
        url: URL, configuration: URLSessionConfiguration = .ephemeral, maximumBytes: Int = defaultMaximumBytes,
        keptBodyBytes: Int = ResponseBody.defaultLimit
    ) {
        http = HTTPNumberSource(
            url: url, maximumBytes: maximumBytes, keptBodyBytes: keptBodyBytes,
            transport: URLSessionTransport(configuration: configuration)
        )
    }

    public func fetchRandomNumber() async throws -> Int {
        try await fetchAnswer().value
    }

    public func fetchAnswer() async throws -> SourceAnswer<Int> {
        try await http.fetchAnswer()
    }

    /// The answer as the history records it: any JSON value, or an integer
    /// in plain text (see `NumberBody.value(in:)`).
    public func fetchValue() async throws -> SourceAnswer<FetchValue> {
        try await http.fetchValue()
    }
}
