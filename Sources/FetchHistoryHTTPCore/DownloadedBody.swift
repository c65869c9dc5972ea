import FetchHistoryModel
import FoundationEssentials

/// What a request brought: the status, the Content-Type, if any, and the
/// body, read as it arrives and no further than the cap, so a huge or
/// endless body costs at most that much memory. Every transport fills one.
///
/// ```swift
/// var body = DownloadedBody(status: 200, limit: 4)
/// body.append(Array("42".utf8))    // true: read on
/// body.append(Array("345".utf8))   // false: past 4 bytes, stop the request
/// body.isOverLimit                 // true
/// ```
package struct DownloadedBody: Sendable {
    package var status: Int
    package var contentType: String?
    /// The body as far as it was read: past `limit` by the last piece
    /// appended when it is over the limit.
    package private(set) var data = Data()
    /// The largest body accepted.
    package let limit: Int
    /// The body passed `limit`; nothing more is appended.
    package private(set) var isOverLimit = false

    package init(status: Int = 0, contentType: String? = nil, limit: Int) {
        self.status = status
        self.contentType = contentType
        self.limit = limit
    }

    /// Appends the next piece of the body. Returns false once the body has
    /// passed the limit: the transport stops reading.
    @discardableResult
    package mutating func append(_ bytes: some Sequence<UInt8>) -> Bool {
        guard !isOverLimit else { return false }
        data.append(contentsOf: bytes)
        isOverLimit = data.count > limit
        return !isOverLimit
    }

    /// What is recorded of an answer that succeeded: its status and size.
    package var response: SourceResponse {
        SourceResponse(status: status, bytes: data.count)
    }

    /// What is recorded of an answer that failed: its status and size, and
    /// the first `keptBytes` of its body with its Content-Type, secrets
    /// hidden (`ResponseBody`); no body when `keptBytes` is 0, or when
    /// the answer had neither a body nor a Content-Type.
    package func failedResponse(keepingBody keptBytes: Int) -> SourceResponse {
        guard keptBytes > 0, !data.isEmpty || contentType != nil else { return response }
        let body = ResponseBody(keeping: data, contentType: contentType, limit: keptBytes, bodyWasCut: isOverLimit)
        return SourceResponse(status: status, bytes: data.count, body: body)
    }

    /// The body read as a number, as `fetchAnswer()` gives it; a body that
    /// is none fails keeping its first `keptBytes`.
    package func number(keepingBody keptBytes: Int) throws(HTTPFetchError) -> SourceAnswer<Int> {
        guard let value = NumberBody.number(in: data) else { throw .notANumber(data, failedResponse(keepingBody: keptBytes)) }
        return SourceAnswer(value: value, response: response)
    }

    /// The body read as the history records it, as `fetchValue()` gives it;
    /// a body that is no value fails keeping its first `keptBytes`.
    package func value(keepingBody keptBytes: Int) throws(HTTPFetchError) -> SourceAnswer<FetchValue> {
        guard let value = NumberBody.value(in: data) else {
            throw .notJSON(data, contentType: contentType, failedResponse(keepingBody: keptBytes))
        }
        return SourceAnswer(value: value, response: response)
    }
}
