import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// `RecordedFetch.run` for apps with a view state of their own: how each
/// ending reaches the caller and the history.
@Suite struct RecordedFetchRunTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    @Test func atTheDeadlineRunThrowsATimeoutAndRecordsIt() async throws {
        // Given a recording with a 1 s timeout and a source that never answers
        let recorder = try await HistoryRecorder.inMemory()
        let clock = ManualClock()
        let recording = FetchRecording(recorder: recorder, clock: clock, timeout: .seconds(1))
        let source = ContinuationStub<Void, Int>()
        let fetch = recording.tap()
        let run = Task { try await fetch.run { try await source.call() } }

        // When the clock reaches the deadline
        try await source.waitUntilCalled()
        try await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))

        // Then run throws the timeout, recorded at the deadline
        await #expect(throws: FetchTimeoutError(timeout: .seconds(1))) { try await withTimeout { try await run.value } }
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.timedOut, at: .seconds(1))])
    }

    @Test func aFailingSourcesOwnErrorIsThrownAndItsMessageRecorded() async throws {
        // Given a recording and a source that fails after 20 ms
        let recorder = try await HistoryRecorder.inMemory()
        let clock = ManualClock()
        let recording = FetchRecording(recorder: recorder, clock: clock)
        let source = ContinuationStub<Void, Int>()
        let fetch = recording.tap()
        let run = Task { try await fetch.run(failureMessage: { "it said \($0)" }) { try await source.call() } }

        // When the source fails
        try await source.waitUntilCalled()
        clock.advance(by: .milliseconds(20))
        await source.resume(throwing: Boom())

        // Then run throws the source's own error, and the history has the message
        await #expect(throws: Boom.self) { try await withTimeout { try await run.value } }
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.failed("it said boom"), at: .milliseconds(20))])
    }

    @Test func anAnswerIsReturnedAndRecorded() async throws {
        let recorder = try await HistoryRecorder.inMemory()
        let recording = FetchRecording(recorder: recorder, clock: ManualClock())

        let value = try await withTimeout { try await recording.tap().run { "a/b" } }

        #expect(value == "a/b")
        #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.succeeded(try FetchValue(encoding: "a/b")), at: .zero)])
    }
}
