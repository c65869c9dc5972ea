import FetchHistory
import IssueReporting
import Observation

/// Records the successive states of an `@Observable` object, as a screen
/// would render them, so a test can take them one by one, or assert the
/// whole timeline at once, on virtual time.
///
/// `state` projects what the test cares about (a struct, a tuple made
/// `Equatable`, one property). The recorder records it when made, then every
/// time it changes, once the main actor is free again after the change: what
/// a screen would render. Changes in one synchronous stretch make one state,
/// and a state equal to the one before is not recorded again.
///
/// ```swift
/// let clock = TestClock()
/// let screen = StateRecorder(clock: clock) { Screen(viewState) }
/// #expect(try await screen.next() == Screen(isProcessing: false, number: nil))
///
/// viewState.fetchButtonTapped()
/// #expect(try await screen.next() == Screen(isProcessing: true, number: nil))
///
/// await clock.advance(by: .milliseconds(150))
/// await api.stub.resume(returning: 42)
/// #expect(try await screen.next() == Screen(isProcessing: false, number: 42))
/// screen.expectNoMoreChanges()
/// ```
///
/// Nothing here depends on how the runtime schedules tasks: `next()` waits
/// for a state to be recorded, and a state set before an `await` is recorded
/// before that `await` can resume, because the recorder's turn on the main
/// actor is queued at the change, ahead of anything the awaited call queues.
@MainActor
public final class StateRecorder<State: Equatable & Sendable> {
    /// Every state recorded so far, the initial one first.
    public private(set) var events: [Recorded<State>] = []

    private let project: @MainActor () -> State
    private let now: @Sendable () -> Duration
    /// How many of `events` `next()` has handed out.
    private var taken = 0
    private var arrivals: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextArrivalID = 0

    /// Records `state()` now, at offset zero, and each change after.
    ///
    /// - Parameters:
    ///   - clock: stamps each state with the time since the recorder was made;
    ///     without one, every offset is zero.
    ///   - state: what to record; everything it reads is observed.
    public init(clock: (any Clock<Duration>)? = nil, _ state: @escaping @MainActor () -> State) {
        project = state
        if let clock {
            now = ClockTimeline(clock).now
        } else {
            now = { .zero }
        }
        events = [Recorded(offset: now(), state: observe())]
    }

    /// The next recorded state not yet taken, waiting for one if need be.
    ///
    /// Throws `TimeoutError` after `limit` of real time, taking nothing.
    public func next(limit: Duration = TimeoutError.defaultLimit) async throws -> State {
        while taken == events.count {
            try await withTimeout(limit) { @MainActor in try await self.arrival() }
        }
        taken += 1
        return events[taken - 1].state
    }

    /// Reports, at the caller's line, each recorded state `next()` has not
    /// taken, and a change not recorded yet: what makes a test exhaustive.
    /// They count as taken afterwards.
    public func expectNoMoreChanges(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        var unexpected = events[taken...].map { "  \($0)" }
        let current = project()
        if current != events.last?.state { unexpected.append("  \(current) (changed, not recorded yet)") }
        taken = events.count
        guard !unexpected.isEmpty else { return }
        reportIssue(
            "\(unexpected.count) state\(unexpected.count == 1 ? "" : "s") not taken with next():\n"
                + unexpected.joined(separator: "\n"),
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }

    /// The projected state, observed: the first change after this schedules
    /// a turn on the main actor that records the state then, stamped with
    /// the time of the change (the clock may have moved on by the turn).
    private func observe() -> State {
        let now = now
        return withObservationTracking(project) { [weak self] in
            let changedAt = now()
            Task { @MainActor [weak self] in self?.recordChange(at: changedAt) }
        }
    }

    private func recordChange(at offset: Duration) {
        let state = observe()
        guard state != events.last?.state else { return }
        events.append(Recorded(offset: offset, state: state))
        let waiting = arrivals.values
        arrivals.removeAll()
        for arrival in waiting { arrival.resume() }
    }

    /// Returns once a state not yet taken is recorded.
    private func arrival() async throws {
        guard taken == events.count else { return }
        nextArrivalID += 1
        let id = nextArrivalID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { arrivals[id] = $0 }
        } onCancel: {
            Task { @MainActor in self.arrivals.removeValue(forKey: id)?.resume(throwing: CancellationError()) }
        }
    }
}
