import FetchHistoryTesting
import Foundation
import Synchronization
import Testing
import FetchHistory
@testable import FetchHistoryModel
@testable import FetchHistoryViewState

/// `FetchRecording.fetch(count:interval:source:onEach:)`, the loop `fetch`
/// runs without a screen: one fetch after the other, each handed over as
/// recorded, and a cancelled caller's fetch in flight recorded at once.
@Suite struct FetchRecordingSeriesTests {
    /// A source that answers 1, 2, 3, … at once.
    final class Counter: Sendable {
        private let count = Mutex(0)

        func next() -> SourceAnswer<Int> {
            SourceAnswer(value: count.withLock { count in
                count += 1
                return count
            })
        }
    }

    @Test func theFetchesRunOneAfterTheOtherAndEachIsHandedOverAsRecorded() async throws {
        // Given a recording on a manual clock and a source counting its calls
        let recorder = try await HistoryRecorder.inMemory()
        let recording = FetchRecording(recorder: recorder, clock: ManualClock())
        let counter = Counter()
        let handedOver = Mutex<[CompletedFetch]>([])

        // When three fetches run
        let completed = try await withTimeout {
            try await recording.fetch(count: 3, interval: .zero, source: { counter.next() }) { fetch in
                handedOver.withLock { $0.append(fetch) }
            }
        }

        // Then each was recorded and handed over, in order, with its own answer
        #expect(completed.count == 3)
        #expect(handedOver.withLock { $0 } == completed)
        let answers = try [1, 2, 3].map { FetchOutcome.succeeded(try FetchValue(encoding: $0)) }
        #expect(completed.map(\.outcome) == answers)
        let expected = answers.enumerated().flatMap { index, outcome in
            [TimelineEvent.started(index + 1, at: .zero), .ended(index + 1, outcome, at: .zero)]
        }
        #expect(try await recorder.timeline() == expected)
    }

    @Test func cancellingTheCallerEndsTheFetchInFlightAtThatMomentAndStartsNoOther() async throws {
        // Given a series of three whose source answers only when told, even once cancelled
        let recorder = try await HistoryRecorder.inMemory()
        let clock = ManualClock()
        let recording = FetchRecording(recorder: recorder, clock: clock)
        let source = ContinuationStub<Void, Int>(honoursCancellation: false)
        let series = Task {
            try await recording.fetch(count: 3, interval: .zero, source: { SourceAnswer(value: try await source.call()) }) { _ in }
        }
        try await source.waitUntilCalled()

        // When the caller is cancelled 20 ms in, and the answer comes 30 ms after that
        clock.advance(by: .milliseconds(20))
        series.cancel()
        clock.advance(by: .milliseconds(30))
        await source.resume(returning: 7)

        // Then the fetch ended cancelled by the user at 20 ms, its answer
        // dropped, and no other fetch started
        let completed = try await withTimeout { try await series.value }
        #expect(completed.map(\.outcome) == [.cancelled(.user)])
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.cancelled(.user), at: .milliseconds(20))])
        #expect(await source.callCount == 1)
    }

    @Test func aReasonNotedBeforeTheCancelIsTheOneRecorded() async throws {
        // Given a series whose fetch is in flight
        let recorder = try await HistoryRecorder.inMemory()
        let recording = FetchRecording(recorder: recorder, clock: ManualClock())
        let source = ContinuationStub<Void, Int>()
        let series = Task {
            try await recording.fetch(count: 2, interval: .zero, source: { SourceAnswer(value: try await source.call()) }) { _ in }
        }
        try await source.waitUntilCalled()

        // When the program is told to stop (SIGTERM), noted before the task is cancelled
        recording.runningFetch?.noteCancel(.terminated)
        series.cancel()

        // Then the fetch is recorded as terminated, not as the user's cancel
        let completed = try await withTimeout { try await series.value }
        #expect(completed.map(\.outcome) == [.cancelled(.terminated)])
    }
}
