import FetchHistoryModel
import FoundationEssentials

/// Writes fetches as OpenTelemetry's OTLP file format, which trace backends
/// and the OpenTelemetry Collector read: JSON lines, each line one
/// `ExportTraceServiceRequest` in OTLP/JSON (opentelemetry-proto's JSON
/// mapping, with trace and span ids in hex, as OTLP/JSON asks).
///
/// A fetch is a client span named after its source, from its start (the
/// tap) to its end; a session is a trace. The ids are the history's own:
/// the trace id is the session's id, the span id the fetch id's two halves
/// folded together (XOR), so exporting the same fetches twice gives the
/// same bytes, and a backend given them twice sees the same spans, not
/// doubles. A fetch still running is left out (`running` counts it): it is
/// exported once it has ended. An interrupted fetch, whose end was never
/// recorded, is an error span of no length, at its start.
///
/// A line holds at most `spansPerLine` spans; within it, each run of one
/// host's spans is a resource of its own (the resource's `host.name`).
/// What `push` sends to a collector is such a line, one request a batch.
package struct OTLPWriter: FetchStreamWriter {
    private var json = JSONWriter()
    private let scopeVersion: String
    private let spansPerLine: Int
    /// The line being written: its spans so far, and the host of its last
    /// resource; nil between lines.
    private var line: (spans: Int, host: String)?
    /// Fetches not written because they are still running.
    package private(set) var running = 0
    /// Fetches written as spans.
    package private(set) var written = 0

    /// - Parameters:
    ///   - scopeVersion: the version of fetch-history, as the instrumentation scope's.
    ///   - spansPerLine: the most spans a line (one request) holds.
    package init(scopeVersion: String, spansPerLine: Int = 1_000) {
        self.scopeVersion = scopeVersion
        self.spansPerLine = spansPerLine
    }

    /// Writes `fetch` as a span, or counts it in `running`.
    package mutating func write(_ fetch: Fetch, into buffer: inout [UInt8]) {
        guard fetch.status != .running else {
            running += 1
            return
        }
        if let line, line.spans == spansPerLine { endLine(into: &buffer) }
        if let line {
            if line.host != fetch.host {
                endResource(into: &buffer)
                beginResource(host: fetch.host, into: &buffer)
            }
        } else {
            json.write(into: &buffer) { json in
                json.beginObject()
                json.key("resourceSpans")
                json.beginArray()
            }
            beginResource(host: fetch.host, into: &buffer)
        }
        line = (spans: (line?.spans ?? 0) + 1, host: fetch.host)
        written += 1
        json.write(into: &buffer) { json in Self.span(fetch, json: &json) }
    }

    /// Ends the last line.
    package mutating func end(into buffer: inout [UInt8]) {
        if line != nil { endLine(into: &buffer) }
    }

    /// One request of every fetch in `fetches` that has ended, without a
    /// newline, and how many spans it holds; nil when none has ended.
    package static func request(of fetches: some Sequence<Fetch>, scopeVersion: String) -> (body: [UInt8], spans: Int)? {
        var writer = OTLPWriter(scopeVersion: scopeVersion, spansPerLine: .max)
        var body: [UInt8] = []
        for fetch in fetches { writer.write(fetch, into: &body) }
        writer.end(into: &body)
        guard writer.written > 0 else { return nil }
        body.removeLast()
        return (body, writer.written)
    }

    private mutating func beginResource(host: String, into buffer: inout [UInt8]) {
        let version = scopeVersion
        json.write(into: &buffer) { json in
            json.beginObject()
            json.key("resource")
            json.beginObject()
            json.key("attributes")
            json.beginArray()
            Self.attribute("service.name", string: "fetch-history", json: &json)
            Self.attribute("host.name", string: host, json: &json)
            json.endArray()
            json.endObject()
            json.key("scopeSpans")
            json.beginArray()
            json.beginObject()
            json.key("scope")
            json.beginObject()
            json.key("name"); json.string("fetch-history")
            json.key("version"); json.string(version)
            json.endObject()
            json.key("spans")
            json.beginArray()
        }
    }

    private mutating func endResource(into buffer: inout [UInt8]) {
        json.write(into: &buffer) { json in
            json.endArray()
            json.endObject()
            json.endArray()
            json.endObject()
        }
    }

    private mutating func endLine(into buffer: inout [UInt8]) {
        line = nil
        endResource(into: &buffer)
        json.write(into: &buffer) { json in
            json.endArray()
            json.endObject()
            json.newline()
        }
    }

    // MARK: - A span

    /// OTLP's `Span.SpanKind.SPAN_KIND_CLIENT`: a fetch asks a source.
    private static let clientKind: Int64 = 3

    /// OTLP's `Status.StatusCode`.
    private enum StatusCode: Int64 {
        case ok = 1
        case error = 2
    }

    private static func span(_ fetch: Fetch, json: inout JSONWriter) {
        let end = fetch.endedAt ?? fetch.startedAt
        json.beginObject()
        json.key("traceId"); json.string(traceID(session: fetch.sessionID))
        json.key("spanId"); json.string(spanID(fetch: fetch.id))
        json.key("name"); json.string(fetch.source)
        json.key("kind"); json.integer(clientKind)
        json.key("startTimeUnixNano"); json.string(nanoseconds(fetch.startedAt))
        json.key("endTimeUnixNano"); json.string(nanoseconds(max(end, fetch.startedAt)))
        json.key("attributes")
        json.beginArray()
        attributes(of: fetch, json: &json)
        json.endArray()
        json.key("events")
        json.beginArray()
        events(of: fetch, json: &json)
        json.endArray()
        if let status = fetch.outcome.flatMap({ SpanTerms.status(of: $0, timeoutMilliseconds: fetch.script?.timeoutMilliseconds) }) {
            json.key("status")
            json.beginObject()
            switch status {
            case .ok:
                json.key("code"); json.integer(StatusCode.ok.rawValue)
            case .error(let message):
                json.key("code"); json.integer(StatusCode.error.rawValue)
                json.key("message"); json.string(message)
            }
            json.endObject()
        }
        json.endObject()
    }

    /// OpenTelemetry's semantic conventions where they have a name
    /// (`http.*`, `url.full`, `error.type`), `fetch_history.*` for the rest.
    private static func attributes(of fetch: Fetch, json: inout JSONWriter) {
        attribute("fetch_history.fetch_id", string: fetch.id.lowercased, json: &json)
        attribute("fetch_history.session", string: fetch.sessionID.lowercased, json: &json)
        attribute("fetch_history.outcome", string: fetch.status.rawValue, json: &json)
        if let reason = fetch.cancelReason { attribute("fetch_history.cancel_reason", string: reason.rawValue, json: &json) }
        if let timeout = fetch.script?.timeoutMilliseconds { attribute("fetch_history.timeout_ms", integer: timeout, json: &json) }
        if fetch.source.isHTTPSource {
            attribute("http.request.method", string: "GET", json: &json)
            attribute("url.full", string: fetch.source, json: &json)
        }
        if let response = fetch.response {
            attribute("http.response.status_code", integer: Int64(response.status), json: &json)
            attribute("http.response.body.size", integer: Int64(response.bytes), json: &json)
        }
        if let type = SpanTerms.errorType(of: fetch.status, error: fetch.errorMessage, httpStatus: fetch.response?.status) {
            attribute("error.type", string: type, json: &json)
        }
    }

    /// The tap, and what ended the fetch when it was not the source's
    /// answer: a cancel (or a newer fetch's tap), or the deadline.
    private static func events(of fetch: Fetch, json: inout JSONWriter) {
        event("tap", at: fetch.script?.tappedAt ?? fetch.startedAt, json: &json)
        guard let end = fetch.script?.end, let name = SpanTerms.endEvent(end.cause) else { return }
        event(name, at: end.at, json: &json)
    }

    private static func event(_ name: String, at time: Timestamp, json: inout JSONWriter) {
        json.beginObject()
        json.key("timeUnixNano"); json.string(nanoseconds(time))
        json.key("name"); json.string(name)
        json.endObject()
    }

    private static func attribute(_ key: String, string: String, json: inout JSONWriter) {
        json.beginObject()
        json.key("key"); json.string(key)
        json.key("value")
        json.beginObject()
        json.key("stringValue"); json.string(string)
        json.endObject()
        json.endObject()
    }

    /// OTLP/JSON writes a 64-bit integer as a decimal string.
    private static func attribute(_ key: String, integer: Int64, json: inout JSONWriter) {
        json.beginObject()
        json.key("key"); json.string(key)
        json.key("value")
        json.beginObject()
        json.key("intValue"); json.string(String(integer))
        json.endObject()
        json.endObject()
    }

    /// OTLP's times are unsigned: a time before 1970 (an imported history
    /// may hold any) is written as 1970's first instant.
    private static func nanoseconds(_ time: Timestamp) -> String {
        time.millisecondsSince1970 > 0 ? String(time.millisecondsSince1970) + "000000" : "0"
    }

    // MARK: - Ids

    /// The trace id of a session's fetches: the session's id, as 32 hex digits.
    package static func traceID(session: UUID) -> String {
        hex(withUnsafeBytes(of: session.uuid) { Array($0) })
    }

    /// The span id of a fetch: the two halves of its id folded together
    /// (XOR), as 16 hex digits. The id's time and its random bits both
    /// count, so two fetches of one history never share one in practice.
    package static func spanID(fetch: UUID) -> String {
        let bytes = withUnsafeBytes(of: fetch.uuid) { Array($0) }
        return hex((0..<8).map { bytes[$0] ^ bytes[$0 + 8] })
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(UInt8(hexDigitOf: byte >> 4))
            text.append(UInt8(hexDigitOf: byte & 0x0F))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
