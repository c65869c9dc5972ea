import FetchHistoryTesting
import Foundation
import InMemoryTracing
import Testing
import Tracing
import FetchHistory
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// The spans a view state gives the app's tracer, one a fetch, read back
/// from swift-distributed-tracing's own `InMemoryTracer`. The tracer is
/// bound to each test's task (`withTracer`), not bootstrapped for the
/// process, so tests running side by side see only their own spans.
@MainActor
struct FetchSpanTests {
    static let source = "https://api.example.com/users?token=***"

    /// A failure that came with the server's answer, as the HTTP source's does.
    struct ServerFailure: Error, SourceResponseError, CustomStringConvertible {
        var response: SourceResponse?
        var description: String { "HTTP \(response?.status ?? 0)" }
    }

    static func attribute(_ span: FinishedInMemorySpan, _ key: String) -> SpanAttribute? {
        span.attributes[key]?.toSpanAttribute()
    }

    static func nanoseconds(_ span: FinishedInMemorySpan) -> UInt64 {
        span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch
    }

    @Test func anAnsweredFetchIsAClientSpanFromItsTapToItsAnswerAndItsSourceRunsInIt() async throws {
        // Given a view state recording an HTTP source's fetches, with a tracer
        let tracer = InMemoryTracer()
        let recorder = try await HistoryRecorder.inMemory(source: Self.source)
        // (the source hands the stub the span id it sees as current: an instrumented HTTP
        // client's spans would be children of that span)
        let api = ContinuationStub<String?, Int>()
        let clock = ManualClock()
        let completed = try await withTracer(tracer) {
            let viewState = FetchViewState(recorder: recorder, clock: clock, timeout: .seconds(5), fetchAnswer: {
                let value = try await api.call(InstrumentationContext.current?.inMemorySpanContext?.spanID)
                return SourceAnswer(value: value, response: SourceResponse(status: 200, bytes: 2))
            })
            // When it is tapped and the source answers 300 ms later
            viewState.fetchButtonTapped()
            try await api.waitUntilCalled()
            #expect(tracer.activeSpans.count == 1, "the span is open while the fetch runs")
            clock.advance(by: .milliseconds(300))
            await api.resume(returning: 42)
            return try await withTimeout { try await viewState.fetchTask?.value }
        }

        // Then there is one span: the source's name, a client's, OK, 300 ms long, with the fetch's ids
        let span = try #require(tracer.finishedSpans.first)
        #expect(tracer.finishedSpans.count == 1 && tracer.activeSpans.isEmpty)
        #expect(completed?.outcome == .succeeded(42))
        #expect(await api.arguments == [span.spanID], "the source ran in the span's context")
        #expect(span.operationName == Self.source)
        #expect(span.kind == .client)
        #expect(span.status == SpanStatus(code: .ok))
        #expect(Self.nanoseconds(span) == 300_000_000)
        #expect(span.events.map(\.name) == ["tap"])
        #expect(span.events.first?.nanosecondsSinceEpoch == span.startInstant.nanosecondsSinceEpoch)
        #expect(Self.attribute(span, "fetch_history.fetch_id") == .string(try #require(completed).id.lowercased))
        #expect(Self.attribute(span, "fetch_history.session") == .string(recorder.session.id.lowercased))
        #expect(Self.attribute(span, "fetch_history.outcome") == .string("succeeded"))
        #expect(Self.attribute(span, "fetch_history.timeout_ms") == .int64(5_000))
        #expect(Self.attribute(span, "url.full") == .string(Self.source))
        #expect(Self.attribute(span, "http.request.method") == .string("GET"))
        #expect(Self.attribute(span, "http.response.status_code") == .int64(200))
        #expect(Self.attribute(span, "http.response.body.size") == .int64(2))
        let host = recorder.session.process.host
        #expect(Self.attribute(span, "host.name") == (host.isEmpty ? nil : .string(host)))
        #expect(Self.attribute(span, "error.type") == nil)
    }

    @Test func aFailedFetchIsAnErrorSpanWithTheServersStatusAndItsProblem() async throws {
        // Given a source that fails with a 503
        let tracer = InMemoryTracer()
        let recorder = try await HistoryRecorder.inMemory(source: Self.source)
        try await withTracer(tracer) {
            let viewState = FetchViewState<Int>(recorder: recorder, clock: ManualClock(), fetch: {
                throw ServerFailure(response: SourceResponse(status: 503, bytes: 4))
            })
            // When it is fetched
            viewState.fetchButtonTapped()
            _ = try await withTimeout { try await viewState.fetchTask?.value }
        }

        // Then the span is an error, with what the history recorded as its message
        let span = try #require(tracer.finishedSpans.first)
        let recorded = try await recorder.store.read { db in try db.fetches() }
        #expect(span.status == SpanStatus(code: .error, message: try #require(recorded.first?.errorMessage)))
        #expect(Self.attribute(span, "fetch_history.outcome") == .string("failed"))
        #expect(Self.attribute(span, "http.response.status_code") == .int64(503))
        #expect(Self.attribute(span, "error.type") == .string("HTTP 503"))
    }

    @Test func aTimedOutFetchIsAnErrorSpanEndingAtItsDeadline() async throws {
        // Given a fetch with a 2 s timeout whose source never answers
        let tracer = InMemoryTracer()
        let recorder = try await HistoryRecorder.inMemory()
        let api = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        try await withTracer(tracer) {
            let viewState = FetchViewState(client: api, recorder: recorder, clock: clock, timeout: .seconds(2))
            viewState.fetchButtonTapped()
            try await api.waitUntilCalled()
            // When the deadline passes
            clock.advance(by: .seconds(2))
            _ = try await withTimeout { try await viewState.fetchTask?.value }
        }

        // Then the span ends at the deadline, an error, with a deadline event there
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "stub")
        #expect(span.status == SpanStatus(code: .error, message: "timed out after 2000ms"))
        #expect(Self.nanoseconds(span) == 2_000_000_000)
        #expect(span.events.map(\.name) == ["tap", "deadline"])
        #expect(span.events.last?.nanosecondsSinceEpoch == span.endInstant.nanosecondsSinceEpoch)
        #expect(Self.attribute(span, "error.type") == .string("timed out"))
        #expect(Self.attribute(span, "url.full") == nil, "a source that is no URL")
    }

    @Test func aCancelledFetchEndsAtTheCancelTapWithNoStatus() async throws {
        // Given a fetch running
        let tracer = InMemoryTracer()
        let recorder = try await HistoryRecorder.inMemory()
        let api = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        try await withTracer(tracer) {
            let viewState = FetchViewState(client: api, recorder: recorder, clock: clock)
            viewState.fetchButtonTapped()
            try await api.waitUntilCalled()
            // When cancel is tapped 700 ms after it, and then a second passes before it ends
            clock.advance(by: .milliseconds(700))
            viewState.cancelButtonTapped()
            clock.advance(by: .seconds(1))
            _ = try await withTimeout { try await viewState.fetchTask?.value }
        }

        // Then the span ends at the cancel's tap, with no status, the user's reason and a cancel event
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status == nil)
        #expect(Self.nanoseconds(span) == 700_000_000)
        #expect(span.events.map(\.name) == ["tap", "cancel"])
        #expect(Self.attribute(span, "fetch_history.outcome") == .string("cancelled"))
        #expect(Self.attribute(span, "fetch_history.cancel_reason") == .string("user"))
        #expect(Self.attribute(span, "error.type") == nil)
    }

    @Test func aNewerTapEndsTheOlderSpanAtThatTap() async throws {
        // Given a fetch running
        let tracer = InMemoryTracer()
        let recorder = try await HistoryRecorder.inMemory()
        let api = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        try await withTracer(tracer) {
            let viewState = FetchViewState(client: api, recorder: recorder, clock: clock)
            viewState.fetchButtonTapped()
            try await api.waitUntilCalled()
            let first = viewState.fetchTask
            // When fetch is tapped again 100 ms later, and the second one is answered
            clock.advance(by: .milliseconds(100))
            viewState.fetchButtonTapped()
            _ = try await withTimeout { try await first?.value }
            try await api.waitUntilCalled(times: 2)
            await api.resume(call: 2, returning: 7)
            _ = try await withTimeout { try await viewState.fetchTask?.value }
        }

        // Then two spans: the first superseded at the second's tap, the second answered
        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        let superseded = try #require(spans.first { Self.attribute($0, "fetch_history.outcome") == .string("cancelled") })
        #expect(Self.attribute(superseded, "fetch_history.cancel_reason") == .string("superseded"))
        #expect(superseded.events.map(\.name) == ["tap", "fetch"])
        #expect(Self.nanoseconds(superseded) == 100_000_000)
        #expect(spans.contains { $0.status == SpanStatus(code: .ok) })
    }

    @Test func aFetchLetGoWithoutAnEndEndsItsSpanWithNoOutcome() async throws {
        // Given a recording, with a tracer
        let tracer = InMemoryTracer()
        let recording = FetchRecording(recorder: try await HistoryRecorder.inMemory())

        // When a fetch is tapped and let go, never started nor ended, while the recording lives on
        withTracer(tracer) { _ = recording.tap() }

        // Then its span has ended, with no outcome, and the recording runs no fetch
        #expect(tracer.activeSpans.isEmpty)
        #expect(tracer.finishedSpans.count == 1)
        let span = try #require(tracer.finishedSpans.first)
        #expect(Self.attribute(span, "fetch_history.outcome") == nil)
        #expect(span.status == nil)
        #expect(recording.runningFetch == nil)
    }
}
