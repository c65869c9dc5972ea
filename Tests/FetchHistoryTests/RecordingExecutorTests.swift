import FetchHistoryTesting
import Foundation
import Synchronization
import Testing
import FetchHistory
@testable import FetchHistoryModel
@testable import FetchHistoryViewState

/// A recording's fetches do their steps — the start written, the source
/// asked, the end written — on the recording's own serial executor, not
/// wherever Swift's global executor puts each resumption.
@Suite struct RecordingExecutorTests {
    /// Notes the task executor each record is written from.
    final class ExecutorLog: FetchRecorder {
        private let executors = Mutex<[UnownedTaskExecutor?]>([])

        func record(_ start: FetchStart) async throws { note() }
        func record(_ end: FetchEnd) async throws { note() }

        private func note() {
            let executor = RecordingExecutorTests.currentExecutor()
            executors.withLock { $0.append(executor) }
        }

        var noted: [UnownedTaskExecutor?] { executors.withLock { $0 } }
    }

    /// The executor the current task prefers, if any.
    static func currentExecutor() -> UnownedTaskExecutor? {
        withUnsafeCurrentTask { $0?.unownedTaskExecutor }
    }

    @Test @MainActor func aViewStatesFetchDoesEveryStepOnItsRecordingsExecutor() async throws {
        // Given a view state whose source notes where it runs
        let log = ExecutorLog()
        let sourceRanOn = Mutex<UnownedTaskExecutor?>(nil)
        let viewState = FetchViewState(recorder: log, clock: ManualClock()) {
            let executor = RecordingExecutorTests.currentExecutor()
            sourceRanOn.withLock { $0 = executor }
            return 7
        }

        // When it fetches
        _ = try await withTimeout { try await viewState.fetch() }

        // Then the start, the source and the end all ran on the recording's executor
        let recordings = viewState.recording.executor.asUnownedTaskExecutor()
        #expect(sourceRanOn.withLock { $0 } == recordings)
        #expect(log.noted == [recordings, recordings])
    }

    @Test func runDoesEveryStepOnTheRecordingsExecutorFromAnyTask() async throws {
        // Given a recording, and a task of the caller's that prefers no executor
        let log = ExecutorLog()
        let recording = FetchRecording(recorder: log, clock: ManualClock())
        #expect(Self.currentExecutor() == nil)

        // When a fetch runs from it
        let sourceRanOn = Mutex<UnownedTaskExecutor?>(nil)
        let value = try await withTimeout {
            try await recording.tap().run {
                let executor = Self.currentExecutor()
                sourceRanOn.withLock { $0 = executor }
                return 7
            }
        }
        #expect(value == 7)

        // Then the start, the source and the end ran on the recording's
        // executor, and the caller is back on its own
        let recordings = recording.executor.asUnownedTaskExecutor()
        #expect(sourceRanOn.withLock { $0 } == recordings)
        #expect(log.noted == [recordings, recordings])
        #expect(Self.currentExecutor() == nil)
    }

    @Test func aSeriesRunsItsFetchesAndHandsThemOverOnTheRecordingsExecutor() async throws {
        // Given a recording, and a task of the caller's that prefers no executor
        let log = ExecutorLog()
        let recording = FetchRecording(recorder: log, clock: ManualClock())
        let handedOverOn = Mutex<[UnownedTaskExecutor?]>([])

        // When a series of two runs from it
        _ = try await withTimeout {
            try await recording.fetch(count: 2, interval: .zero, source: { SourceAnswer(value: 7) }) { _ in
                let executor = Self.currentExecutor()
                handedOverOn.withLock { $0.append(executor) }
            }
        }

        // Then every record was written, and every fetch handed over, on the recording's executor
        let recordings = recording.executor.asUnownedTaskExecutor()
        #expect(log.noted == Array(repeating: recordings, count: 4))
        #expect(handedOverOn.withLock { $0 } == [recordings, recordings])
        #expect(Self.currentExecutor() == nil)
    }
}
