import Dispatch

/// A task executor that runs its jobs one at a time on a serial dispatch
/// queue of its own: where a recording's fetches do their work.
///
/// A fetch goes back and forth between its steps — the start written, the
/// source asked, its answer, the end written — and on Swift's global
/// executor each of those resumptions may wake another thread of the pool.
/// On one serial queue the steps follow each other on the thread that is
/// already running, and only the hand-offs to the store's queue and the
/// network's loop wake one: 100 recorded HTTP fetches take about 8% less
/// time (docs/library.md, "Recording a view state of your own"). Running
/// them on the store's queue itself was measured too, and saved no more.
///
/// Jobs never run at the same time, so a source must not block the thread
/// it runs on waiting for another job of the same recording.
package final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
