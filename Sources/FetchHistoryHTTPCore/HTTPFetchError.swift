import FetchHistoryModel
import FoundationEssentials

/// Why the HTTP source did not give a number. The message is what the
/// screen shows and the history records: it never contains the URL, whose
/// query may hold a secret.
///
/// Every transport (URLSession in `HTTPNumberClient`, AsyncHTTPClient for
/// the commands) fails with these values, in these words.
public enum HTTPFetchError: Error, Equatable, LocalizedError, SourceResponseError {
    /// The server answered with a status outside 200…299.
    case status(SourceResponse)
    /// A 2xx body that is not an integer, a JSON number, or an object with a
    /// numeric `number` or `value`, asked for as a number (`fetchAnswer()`).
    /// Holds the body's first 80 characters, made safe to print.
    case notANumber(preview: String, SourceResponse)
    /// A 2xx body that is neither JSON nor an integer in plain text, asked
    /// for as any value (`fetchValue()`). Holds the body's first 80
    /// characters and its Content-Type, if it had one, made safe to print.
    case notJSON(preview: String, contentType: String?, SourceResponse)
    /// The body passed the size cap; reading stopped there.
    case bodyTooLarge(limit: Int, SourceResponse)
    /// The request never got a response: refused, unknown host, TLS, …
    case transport(String)

    public var errorDescription: String? {
        switch self {
        case .status(let response): "HTTP \(response.status)"
        case .notANumber(let preview, _): "response is not a number: \"\(preview)\""
        case .notJSON(let preview, let contentType, let response):
            (response.bytes == 0 ? "response is empty" : "response is neither JSON nor a number: \"\(preview)\"")
                + (contentType.map { " (Content-Type: \($0))" } ?? "")
        case .bodyTooLarge(let limit, _): "response is larger than \(Self.format(bytes: limit))"
        case .transport(let message): message
        }
    }

    public var response: SourceResponse? {
        switch self {
        case .status(let response), .notANumber(_, let response), .notJSON(_, _, let response),
             .bodyTooLarge(_, let response): response
        case .transport: nil
        }
    }

    /// A body that is not a number, as `notANumber` says it.
    package static func notANumber(_ body: some Collection<UInt8>, _ response: SourceResponse) -> HTTPFetchError {
        .notANumber(preview: preview(of: body), response)
    }

    /// A body that is neither JSON nor a number, as `notJSON` says it.
    package static func notJSON(_ body: some Collection<UInt8>, contentType: String?, _ response: SourceResponse) -> HTTPFetchError {
        .notJSON(preview: preview(of: body), contentType: contentType.map { String($0.prefix(80)).terminalSafe }, response)
    }

    /// A request that got no answer, in words naming `host` but not the
    /// rest of the URL.
    package static func transport(_ failure: TransportFailure, host: String) -> HTTPFetchError {
        .transport(failure.sentence(host: host))
    }

    /// The body's first 80 characters, without the white space around them:
    /// a server's text, so control characters are shown as escapes.
    private static func preview(of body: some Collection<UInt8>) -> String {
        let text = String(decoding: body.prefix(4 * 80), as: UTF8.self)
        return String(trimmingWhiteSpace(text).prefix(80)).terminalSafe
    }

    /// `text` without the white space and line ends around it: the scalars
    /// with Unicode's White_Space property, which are exactly Foundation's
    /// `CharacterSet.whitespacesAndNewlines` (not in FoundationEssentials).
    private static func trimmingWhiteSpace(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return Substring(scalars[first...last])
    }

    private static func format(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
