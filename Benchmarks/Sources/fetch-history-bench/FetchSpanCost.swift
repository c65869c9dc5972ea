@_spi(Benchmarks) import FetchHistory
import Foundation

/// What a fetch's span costs when the app bootstraps no tracer (issue 35:
/// "an app that bootstraps no tracer pays nothing measurable"): the span
/// `RecordedFetch` makes at the tap and ends with the fetch, here made and
/// ended in a loop, through swift-distributed-tracing's no-op tracer, with
/// an HTTP source's labels (the most attributes a span would get).
enum FetchSpanCost {
    /// Seconds per fetch, over `count` spans.
    static func seconds(perFetchOf count: Int) -> Double {
        let labels = RecordingLabels(source: "https://api.example.com/numbers?token=***", sessionID: UUID(), host: "probe-3")
        let ids = (0..<count).map { _ in UUID() }
        let answer = FetchValue(42)
        let clock = ContinuousClock()
        let start = clock.now
        for id in ids {
            let span = FetchSpan(fetch: id, tappedAt: .milliseconds(1), timeout: .seconds(5), labels: labels)
            span.end(
                at: .milliseconds(4), .succeeded(answer), cause: .answer(answer),
                response: SourceResponse(status: 200, bytes: 2)
            )
        }
        return (clock.now - start).seconds / Double(count)
    }
}
