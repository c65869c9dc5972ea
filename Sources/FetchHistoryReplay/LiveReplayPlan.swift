import FetchHistoryModel
import FetchHistoryViewState

/// How to re-run a recorded session live (`replay --live`): the recorded
/// taps and cancels, at their offsets from the session's start, to perform
/// in real time on a view state fetching from the real source. Where
/// `SessionReplay` also plays the source's answers on virtual time, a live
/// re-run leaves answering to the source, so its plan is the user's actions
/// alone, with where to wait for the source.
///
/// ```swift
/// let plan = LiveReplayPlan(fetches: recorded, origin: session.startedAt)
/// let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: plan.timeout)
/// try await plan.perform(on: viewState, clock: clock)
/// ```
public struct LiveReplayPlan: Equatable, Sendable {
    /// One recorded tap or cancel, at its offset from the session's start.
    public struct Step: Equatable, Sendable {
        public enum Action: Equatable, Sendable { case tap, cancel }

        public var at: Duration
        public var action: Action
        /// For a tap that came after the previous fetch had ended by itself
        /// (answered, failed, timed out or cancelled, as `fetch --count` taps
        /// each fetch after the last): that end's offset. The re-run first
        /// waits for its own fetch in flight to end and keeps the recorded
        /// gap from there, so a slower source delays the tap instead of the
        /// tap superseding a fetch the recording never superseded. A tap that
        /// came while a fetch was in flight has none: it happens at its
        /// recorded moment, superseding again whatever is in flight then.
        public var previousEnd: Duration?

        public init(at: Duration, action: Action, previousEnd: Duration? = nil) {
            self.at = at
            self.action = action
            self.previousEnd = previousEnd
        }
    }

    /// The actions in the order to perform them.
    public var steps: [Step]
    /// The view state's timeout in the recording (its first fetch's).
    public var timeout: Duration?

    /// The plan for `fetches` of a session that started at `origin`.
    /// Fetches without a script (recorded before scripts were kept) have
    /// nothing to re-run.
    public init(fetches: [Fetch], origin: Timestamp) {
        let scripts = fetches.compactMap(\.script).sorted { $0.tappedAt < $1.tappedAt }
        func offset(_ time: Timestamp) -> Duration {
            .milliseconds(time.millisecondsSince1970 - origin.millisecondsSince1970)
        }
        var steps: [Step] = []
        var previous: FetchScript.End?
        for script in scripts {
            var previousEnd: Duration?
            if let end = previous, end.at <= script.tappedAt {
                if case .fetchTap = end.cause {} else { previousEnd = offset(end.at) }
            }
            steps.append(Step(at: offset(script.tappedAt), action: .tap, previousEnd: previousEnd))
            if case .cancelTap? = script.end?.cause, let at = script.end?.at {
                steps.append(Step(at: offset(at), action: .cancel))
            }
            previous = script.end
        }
        // A cancel and a tap at the same millisecond: the cancel came first
        // (a tap would have superseded the fetch, not left it to cancel).
        self.steps = steps.enumerated().sorted {
            ($0.element.at, $0.element.action == .tap ? 1 : 0, $0.offset) < ($1.element.at, $1.element.action == .tap ? 1 : 0, $1.offset)
        }.map(\.element)
        self.timeout = scripts.first?.timeoutMilliseconds.map { .milliseconds($0) }
    }

    /// Performs the steps on `viewState` as `clock` runs, then waits for the
    /// last fetch to end. Throws only if the clock's sleep does (the task
    /// was cancelled).
    @MainActor
    public func perform<Value, C: Clock<Duration>>(on viewState: FetchViewState<Value>, clock: C) async throws {
        // Where the re-run is on the recording's time line: the moment of the
        // recording that `clock.now` re-enacts.
        var anchor = (live: clock.now, recorded: Duration.zero)
        for step in steps {
            if let end = step.previousEnd {
                _ = try? await viewState.fetchTask?.value
                anchor = (clock.now, end)
            }
            try await clock.sleep(until: anchor.live.advanced(by: step.at - anchor.recorded), tolerance: nil)
            switch step.action {
            case .tap: viewState.fetchButtonTapped()
            case .cancel: viewState.cancelButtonTapped()
            }
        }
        _ = try? await viewState.fetchTask?.value
    }
}
