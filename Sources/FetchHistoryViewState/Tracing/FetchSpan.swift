import FetchHistoryModel
import FoundationEssentials
import Tracing

/// A fetch as a span of the tracer the app bootstrapped
/// (`InstrumentationSystem.tracer`, or one bound with `withTracer`): named
/// after the recorder's source, started at the tap, ended with the fetch,
/// with the fetch's outcome as its status. The same attributes as
/// `export --format otlp` writes (OpenTelemetry's names where they have
/// one, `fetch_history.*` for the rest); events for the tap and for a
/// cancel, a newer fetch's tap or the deadline that ended it.
///
/// Times are the tracer's clock at the tap, then the recording's clock
/// from there: a fetch ended by a cancel ends at the cancel's tap, and on a
/// test clock a span lasts as long as the fetch did in virtual time.
///
/// Without a tracer the span is the no-op tracer's, and no attribute is
/// made (`isRecording` is false): what that costs a fetch, against
/// recording it, is measured in `Benchmarks/` (through this SPI).
@_spi(Benchmarks) public struct FetchSpan: Sendable {
    private let span: any Span
    private let tappedAt: DefaultTracerClock.Instant
    /// The tap on the recording's clock: the origin of the end's offset.
    private let tapOffset: Duration
    private let timeout: Duration?

    @_spi(Benchmarks) public init(fetch id: UUID, tappedAt tapOffset: Duration, timeout: Duration?, labels: RecordingLabels) {
        let now = DefaultTracerClock.now
        self.tappedAt = now
        self.tapOffset = tapOffset
        self.timeout = timeout
        span = InstrumentationSystem.tracer.startSpan(
            labels.source ?? "fetch", context: InstrumentationContext.current ?? .topLevel, ofKind: .client, at: now
        )
        guard span.isRecording else { return }
        var attributes = SpanAttributes()
        attributes["fetch_history.fetch_id"] = id.lowercased
        if let session = labels.sessionID { attributes["fetch_history.session"] = session.lowercased }
        if let timeout { attributes["fetch_history.timeout_ms"] = Int64(timeout.wholeMilliseconds) }
        if let host = labels.host, !host.isEmpty { attributes["host.name"] = host }
        if let source = labels.source, source.isHTTPSource {
            attributes["http.request.method"] = "GET"
            attributes["url.full"] = source
        }
        span.attributes = attributes
        span.addEvent(SpanEvent(name: "tap", at: now))
    }

    /// What the source's answer runs in: the span's context, so that the
    /// spans the source makes (an instrumented HTTP client's) are its
    /// children; nil without a tracer, when there is nothing to pass on.
    var propagatedContext: InstrumentationContext? { span.isRecording ? span.context : nil }

    /// Ends the span of a fetch let go without an end: now, with no outcome.
    func abandon() {
        span.end()
    }

    /// Ends the span at `offset`, on the recording's clock, as the fetch ended.
    @_spi(Benchmarks) public func end(at offset: Duration, _ outcome: FetchOutcome, cause: FetchEnd.Cause, response: SourceResponse?) {
        let end = DefaultTracerClock.Instant(
            nanosecondsSinceEpoch: tappedAt.nanosecondsSinceEpoch &+ UInt64(max(.zero, offset - tapOffset).wholeNanoseconds)
        )
        if span.isRecording {
            span.attributes["fetch_history.outcome"] = outcome.status.rawValue
            if case .cancelled(let reason) = outcome { span.attributes["fetch_history.cancel_reason"] = reason.rawValue }
            if let response {
                span.attributes["http.response.status_code"] = Int64(response.status)
                span.attributes["http.response.body.size"] = Int64(response.bytes)
            }
            if let event = SpanTerms.endEvent(cause) { span.addEvent(SpanEvent(name: event, at: end)) }
            let error: String? = if case .failed(let message) = outcome { message } else { nil }
            if let type = SpanTerms.errorType(of: outcome.status, error: error, httpStatus: response?.status) {
                span.attributes["error.type"] = type
            }
            switch SpanTerms.status(of: outcome, timeoutMilliseconds: timeout.map { Int64($0.wholeMilliseconds) }) {
            case .ok?: span.setStatus(SpanStatus(code: .ok))
            case .error(let message)?: span.setStatus(SpanStatus(code: .error, message: message))
            case nil: break
            }
        }
        span.end(at: end)
    }
}

extension Duration {
    /// The whole nanoseconds, rounded down; a negative duration counts as none.
    fileprivate var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
