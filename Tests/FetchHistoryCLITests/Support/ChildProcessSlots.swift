import Foundation

/// A bound on how many run-to-the-end children run at once.
///
/// Swift Testing starts every test in parallel: at the start of a run about
/// two hundred tests each launch a child, and on a two-core machine those
/// children took the CPU from everything else for ten seconds and more. An
/// in-process test's real-time bound (`withTimeout`, 5 s) then expired while
/// its own work, a few milliseconds of it, waited for a core: CI failed on
/// exactly that. With a few children at a time the machine stays responsive
/// and the whole suite takes no longer.
///
/// Only runs to the end wait for a slot. A child a test starts and keeps
/// (a follower, a fetch it will signal) may need another child to finish
/// before it does; were it to hold a slot, enough such tests at once would
/// wait on each other forever.
actor ChildProcessSlots {
    static let shared = ChildProcessSlots(width: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let width: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) {
        self.width = width
    }

    /// Runs `work` once fewer than `width` others are running, first come first served.
    func withSlot<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if running < width {
            running += 1
        } else {
            // The slot is handed over by `release`, so `running` stays counted.
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { release() }
        return try await work()
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
