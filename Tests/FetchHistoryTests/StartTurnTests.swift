import FetchHistoryTesting
import Foundation
import Synchronization
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// A fetch's start waits for the start of the fetch tapped before it, even
/// when the fetch is cancelled before it starts: otherwise a double tap
/// (the first superseded at once) could write its starts out of tap order.
///
/// Which of two tasks reaches the store first is the scheduler's choice, so
/// the cancelled fetch's task runs on an executor the test drains itself
/// (`DrainedExecutor`): after a drain, the task has gone as far as it can
/// without anything else happening, whatever the scheduler would have done.
@Suite struct StartTurnTests {
    /// A task executor that runs its jobs only when told to.
    final class DrainedExecutor: TaskExecutor {
        private let jobs = Mutex<[UnownedJob]>([])

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
        }

        /// Runs every job enqueued, and the jobs they enqueue, until none is left.
        func drain() {
            while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// Notes the order starts are written in; every write succeeds at once.
    final class StartLog: FetchRecorder {
        private let ids = Mutex<[UUID]>([])
        var starts: [UUID] { ids.withLock { $0 } }

        func record(_ start: FetchStart) async throws { ids.withLock { $0.append(start.id) } }
        func record(_ end: FetchEnd) async throws {}
    }

    @Test func aCancelledFetchStillWaitsForTheStartOfTheFetchTappedBeforeIt() async throws {
        // Given two fetches tapped one after the other, the first not started yet
        let log = StartLog()
        let recording = FetchRecording(recorder: log, clock: ManualClock())
        let first = recording.tap()
        let second = recording.tap()

        // When the second is started in a task cancelled before it runs
        let executor = DrainedExecutor()
        let secondStart = Task(executorPreference: executor) { try await second.start() }
        secondStart.cancel()
        await runOnDedicatedThread { executor.drain() }

        // Then it has written nothing: it waits for the first's start
        #expect(log.starts == [])

        // When the first starts
        try await first.start()
        await runOnDedicatedThread { executor.drain() }
        try await withTimeout { try await secondStart.value }

        // Then both starts are written, in tap order
        #expect(log.starts == [first.id, second.id])
    }
}
