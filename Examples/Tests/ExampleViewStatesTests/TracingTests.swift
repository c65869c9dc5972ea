import ExampleViewStates
import FetchHistoryTesting
import Foundation
import InMemoryTracing
import Testing
import Tracing

/// An app that bootstraps a tracer (swift-otel's, in production) sees each
/// fetch of its screens as a span; a test binds swift-distributed-tracing's
/// `InMemoryTracer` to its own task and reads the spans back.
@MainActor
@Suite struct TracingTests {
    let ada = User(id: 7, name: "Ada")

    @Test func eachFetchOfAUserScreenIsASpanOfTheAppsTracer() async throws {
        let tracer = InMemoryTracer()
        let recorder = try await HistoryRecorder(store: .inMemory(), source: "users")
        let api = ContinuationStub<Int, User>()
        let clock = ManualClock()
        try await withTracer(tracer) {
            let viewState = FetchViewState(recorder: recorder, clock: clock) {
                try await api.user(id: 7)
            }
            viewState.fetchButtonTapped()
            try await api.waitUntilCalled()
            clock.advance(by: .milliseconds(120))
            await api.resume(returning: ada)
            _ = try await withTimeout { try await viewState.fetchTask?.value }
        }

        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "users")
        #expect(span.status == SpanStatus(code: .ok))
        let outcome = span.attributes["fetch_history.outcome"]?.toSpanAttribute()
        #expect(outcome == .string("succeeded"))
        let nanoseconds = span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch
        #expect(nanoseconds == 120_000_000)
    }
}
