import FetchHistoryModel
import FoundationEssentials

/// Writes the fetches of HTTP(S) sources as HAR 1.2, the HTTP Archive that
/// browser developer tools, Charles, Proxyman and Insomnia open: an entry
/// per fetch, a page per session.
///
/// What HAR asks and the history does not hold is written as HAR's "not
/// known": headers and cookies empty, sizes of headers -1. The phases of a
/// request were not measured apart, so `timings` puts the whole duration in
/// `wait` (`send` and `receive` 0, never negative). A fetch with no answer
/// (refused, timed out, cancelled) has `status` 0. The URL is the one the
/// history holds, its secrets already replaced by `***` when it was
/// recorded: nothing is added to it, and what a URI cannot hold (a space,
/// a control character, a `%` that starts no escape: an imported history
/// may hold any text) is percent-encoded, so HAR readers accept it. The fetch's own fields go under
/// `_fetchHistory`, its error under `_error`, as HAR's custom fields.
///
/// Entries are written as they come (the history is read oldest first);
/// pages, one per session, are collected on the way and written after them.
package struct HARWriter: FetchStreamWriter {
    private var json = JSONWriter()
    private var pages: [Page] = []
    private var pageIndex: [UUID: Int] = [:]
    /// Fetches not written: their source is not an HTTP(S) URL.
    package private(set) var skipped = 0
    /// Fetches written as entries.
    package private(set) var written = 0

    package init() {}

    private struct Page {
        let session: UUID
        let startedAt: Timestamp
        let host: String
    }

    package mutating func begin(into buffer: inout [UInt8], creatorVersion: String) {
        json.write(into: &buffer) { json in
            json.beginObject()
            json.key("log")
            json.beginObject()
            json.key("version"); json.string("1.2")
            json.key("creator")
            json.beginObject()
            json.key("name"); json.string("fetch-history")
            json.key("version"); json.string(creatorVersion)
            json.endObject()
            json.key("entries")
            json.beginArray(elementsOnOwnLines: true)
        }
    }

    /// Writes `fetch` as an entry, or counts it in `skipped` when its source is not HTTP(S).
    package mutating func write(_ fetch: Fetch, into buffer: inout [UInt8]) {
        guard fetch.source.isHTTPSource else {
            skipped += 1
            return
        }
        written += 1
        if pageIndex[fetch.sessionID] == nil {
            pageIndex[fetch.sessionID] = pages.count
            pages.append(Page(session: fetch.sessionID, startedAt: fetch.startedAt, host: fetch.host))
        }
        json.write(into: &buffer) { json in Self.entry(fetch, json: &json) }
    }

    package mutating func end(into buffer: inout [UInt8]) {
        let pages = pages
        json.write(into: &buffer) { json in
            json.endArray()
            json.key("pages")
            json.beginArray(elementsOnOwnLines: true)
            for page in pages {
                json.beginObject()
                json.key("startedDateTime"); json.timestamp(page.startedAt)
                json.key("id"); json.uuid(page.session)
                let session = page.session.uuidString.lowercased()
                json.key("title"); json.string(page.host.isEmpty ? "session \(session)" : "session \(session) on \(page.host)")
                json.key("pageTimings")
                json.beginObject()
                json.key("onContentLoad"); json.integer(-1 as Int64)
                json.key("onLoad"); json.integer(-1 as Int64)
                json.endObject()
                json.endObject()
            }
            json.endArray()
            json.endObject()
            json.endObject()
            json.newline()
        }
    }

    private static func entry(_ fetch: Fetch, json: inout JSONWriter) {
        let milliseconds = max(0, fetch.durationMilliseconds ?? 0)
        json.beginObject()
        json.key("pageref"); json.uuid(fetch.sessionID)
        json.key("startedDateTime"); json.timestamp(fetch.startedAt)
        json.key("time"); json.integer(milliseconds)
        json.key("request")
        json.beginObject()
        json.key("method"); json.string("GET")
        json.key("url"); json.string(Self.uri(fetch.source))
        json.key("httpVersion"); json.string("HTTP/1.1")
        json.key("cookies"); json.beginArray(); json.endArray()
        json.key("headers"); json.beginArray(); json.endArray()
        json.key("queryString")
        json.beginArray()
        for (name, value) in Self.queryString(of: fetch.source) {
            json.beginObject()
            json.key("name"); json.string(name)
            json.key("value"); json.string(value)
            json.endObject()
        }
        json.endArray()
        json.key("headersSize"); json.integer(-1 as Int64)
        json.key("bodySize"); json.integer(0 as Int64)
        json.endObject()
        json.key("response")
        json.beginObject()
        json.key("status"); json.integer(fetch.response?.status ?? 0)
        json.key("statusText"); json.string("")
        json.key("httpVersion"); json.string(fetch.response == nil ? "" : "HTTP/1.1")
        json.key("cookies"); json.beginArray(); json.endArray()
        json.key("headers"); json.beginArray(); json.endArray()
        json.key("content")
        json.beginObject()
        json.key("size"); json.integer(fetch.response?.bytes ?? 0)
        if let body = fetch.response?.body {
            // A failed answer: the start of its body, secrets hidden, as it came.
            json.key("mimeType"); json.string(body.contentType ?? "")
            json.key("text"); json.string(body.text)
            if body.isTruncated { json.key("comment"); json.string("truncated: the body went on past this text") }
        } else {
            // The HTTP source takes only JSON as a value; without one, the type was not kept.
            json.key("mimeType"); json.string(fetch.value == nil ? "" : "application/json")
            if let value = fetch.value { json.key("text"); json.string(value.json) }
        }
        json.endObject()
        json.key("redirectURL"); json.string("")
        json.key("headersSize"); json.integer(-1 as Int64)
        json.key("bodySize"); json.integer(fetch.response.map { Int64($0.bytes) } ?? -1)
        json.endObject()
        json.key("cache"); json.beginObject(); json.endObject()
        json.key("timings")
        json.beginObject()
        json.key("send"); json.integer(0 as Int64)
        json.key("wait"); json.integer(milliseconds)
        json.key("receive"); json.integer(0 as Int64)
        json.endObject()
        json.key("_fetchHistory")
        json.beginObject()
        json.key("id"); json.uuid(fetch.id)
        json.key("session"); json.uuid(fetch.sessionID)
        json.key("outcome"); json.string(fetch.status.rawValue)
        json.key("cancelReason"); json.string(fetch.cancelReason?.rawValue)
        json.key("endedBy"); json.string(fetch.script?.end?.cause.name)
        json.key("timeoutMs"); json.integer(fetch.script?.timeoutMilliseconds)
        json.key("host"); json.string(fetch.host)
        json.endObject()
        json.key("_error"); json.string(fetch.errorMessage)
        json.endObject()
    }

    /// The query's parameters as browsers list them in HAR: split at `&`
    /// and the first `=`, each form-decoded (`+` a space, `%XX` a byte, a
    /// malformed escape kept as written); a redacted value stays `***`.
    static func queryString(of source: String) -> [(name: String, value: String)] {
        let withoutFragment = source.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return [] }
        return withoutFragment[withoutFragment.index(after: mark)...].split(separator: "&").map { pair in
            let name = pair.prefix { $0 != "=" }
            return (RedactedURL.formDecoded(String(name)), RedactedURL.formDecoded(String(pair.dropFirst(name.count + 1))))
        }
    }

    /// `source` with each byte a URI cannot hold percent-encoded: RFC 3986's
    /// characters stay, and `%` where it starts an escape; the rest of
    /// ASCII and every byte of other characters become `%XX`.
    static func uri(_ source: String) -> String {
        let bytes = Array(source.utf8)
        func startsEscape(_ index: Int) -> Bool {
            index + 2 < bytes.count && bytes[index + 1].hexDigitValue != nil && bytes[index + 2].hexDigitValue != nil
        }
        let kept = bytes.indices.map { index in
            bytes[index] == UInt8(ascii: "%") ? startsEscape(index) : uriCharacters.contains(bytes[index])
        }
        guard kept.contains(false) else { return source }
        var out: [UInt8] = []
        for (byte, keep) in zip(bytes, kept) {
            if keep {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), upperHexDigits[Int(byte >> 4)], upperHexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 writes escapes in upper case.
    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986's unreserved and reserved characters.
    private static let uriCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)
}
