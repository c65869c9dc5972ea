import FetchHistory
import FetchHistoryHTTPCore
import FoundationEssentials

/// The HTTP source on SwiftNIO: `HTTPNumberClient`'s behaviour — the same
/// request, numbers and values read from the same bodies, the same size
/// cap, the same errors in the same words, cancellation as
/// `CancellationError`, all of it `HTTPNumberSource`'s — on
/// AsyncHTTPClient, whose wait for an answer sleeps in `epoll_wait`.
/// URLSession on Linux drives libcurl from timers instead: a fetch waiting
/// 3 s for a slow server used about 2 s of processor time.
///
/// `HTTPNumberClient` (URLSession) stays the HTTP source apps use on Apple
/// platforms; the commands use this one, which links neither URLSession nor
/// libcurl.
///
/// ```swift
/// let answer = try await AsyncHTTPNumberClient(url: URL(string: "http://127.0.0.1:8080/n")!).fetchAnswer()
/// ```
package actor AsyncHTTPNumberClient: APIClient {
    /// 1 MiB, as `HTTPNumberClient`'s.
    package static let defaultMaximumBytes = HTTPGetRequest.defaultMaximumBytes

    /// The URL fetched, its scheme in lower case.
    package nonisolated var url: URL { http.url }
    /// The URL with its secrets replaced: what the history records.
    package nonisolated var source: String { http.source }
    private nonisolated let http: HTTPNumberSource<AsyncHTTPClientTransport>

    /// - Parameters:
    ///   - maximumBytes: the largest body accepted.
    ///   - keptBodyBytes: how much of a failed answer's body the history
    ///     keeps (0: none; see `ResponseBody`).
    package init(url: URL, maximumBytes: Int = defaultMaximumBytes, keptBodyBytes: Int = ResponseBody.defaultLimit) {
        http = HTTPNumberSource(
            url: url, maximumBytes: maximumBytes, keptBodyBytes: keptBodyBytes, transport: AsyncHTTPClientTransport()
        )
    }

    package func fetchRandomNumber() async throws -> Int {
        try await fetchAnswer().value
    }

    package func fetchAnswer() async throws -> SourceAnswer<Int> {
        try await http.fetchAnswer()
    }

    /// The answer as the history records it: any JSON value, or an integer
    /// in plain text (see `NumberBody.value(in:)`).
    package func fetchValue() async throws -> SourceAnswer<FetchValue> {
        try await http.fetchValue()
    }
}
