import FoundationEssentials
import Glibc
import Observation
import Synchronization

/// The screen's state for fetching a number: start, cancel, show the result.
///
/// Every fetch is reported to the injected `FetchRecorder` as it starts and
/// ends, before the screen changes. Time (latency, timeouts, intervals, the
/// recorded offsets) runs on the injected clock, so tests use a test clock.
///
/// Recorded times are the times of what caused them, so a session can be
/// replayed exactly: a fetch starts when it was tapped, and a cancelled fetch
/// ends when cancel (or a newer fetch) was tapped, a timed-out one at its
/// deadline, an answered one when the answer arrived.
///
/// ```swift
/// let viewState = FetchViewState(client: RandomNumberClient(), recorder: recorder)
/// viewState.fetchButtonTapped()   // starts a fetch in `fetchTask`
/// viewState.cancelButtonTapped()  // cancels it; recorded as cancelled (user)
/// ```
@MainActor
@Observable
public final class FetchViewState {
    /// The last number fetched; cleared when a fetch is cancelled or times out.
    public private(set) var number: Int?
    /// True while a fetch is in flight.
    public private(set) var isProcessing = false
    /// What went wrong with the last fetch, as shown to the user.
    public private(set) var error: String?
    /// The task of the latest fetch started.
    public private(set) var fetchTask: Task<CompletedFetch, any Error>?

    /// What the screen shows for `number`.
    public var numberLabel: String {
        number.map(String.init) ?? "Not fetched yet"
    }

    @ObservationIgnored private let client: any APIClient
    @ObservationIgnored private let recorder: any FetchRecorder
    @ObservationIgnored private let timeout: Duration?
    @ObservationIgnored private let timeline: ClockTimeline
    /// The fetch that owns the screen; an older one ending changes nothing.
    @ObservationIgnored private var current: Attempt?

    /// - Parameters:
    ///   - client: the source of numbers.
    ///   - recorder: where each transition is reported; `HistoryRecorder` writes it to SQLite.
    ///   - clock: the clock for timeouts, intervals and recorded times.
    ///   - timeout: cancels a fetch that runs longer, recorded as `timed-out`.
    public init(
        client: any APIClient,
        recorder: any FetchRecorder,
        clock: any Clock<Duration> = ContinuousClock(),
        timeout: Duration? = nil
    ) {
        self.client = client
        self.recorder = recorder
        self.timeout = timeout
        self.timeline = ClockTimeline(clock)
    }

    /// Starts a fetch in `fetchTask`. A fetch still in flight is cancelled
    /// first and recorded as cancelled, reason superseded.
    public func fetchButtonTapped() {
        start()
    }

    /// Cancels the fetch in flight, if any; recorded as cancelled, reason user.
    public func cancelButtonTapped() {
        guard let current else { return }
        current.cancel(.user, at: timeline.now())
    }

    /// Starts a fetch like `fetchButtonTapped()` and waits until it has ended
    /// and been recorded. Cancelling the calling task cancels the fetch
    /// (reason user).
    ///
    /// - Throws: `FetchRecordingError` if the recorder failed; the source's
    ///   own failures are outcomes, not errors.
    @discardableResult
    public func fetch() async throws -> CompletedFetch {
        let attempt = start()
        let timeline = self.timeline
        return try await withTaskCancellationHandler {
            try await attempt.value
        } onCancel: {
            attempt.cancel(.user, at: timeline.now())
        }
    }

    /// Runs `count` fetches one after the other, waiting `interval` on the
    /// clock between the end of one and the start of the next. Stops early
    /// when a fetch is cancelled by the user or the calling task is cancelled.
    @discardableResult
    public func fetch(
        count: Int, interval: Duration, onEach: (CompletedFetch) -> Void = { _ in }
    ) async throws -> [CompletedFetch] {
        var completed: [CompletedFetch] = []
        for _ in 0..<count {
            if let previous = completed.last, interval > .zero {
                // Until the previous fetch's recorded end plus the interval,
                // not for the interval from whenever this line runs: on a
                // test clock the next start is then exact, however late this
                // task gets here.
                do { try await timeline.sleep(until: previous.startOffset + previous.duration + interval) } catch { break }
            }
            if Task.isCancelled { break }
            let fetch = try await fetch()
            completed.append(fetch)
            onEach(fetch)
            if fetch.outcome == .cancelled(.user) || Task.isCancelled { break }
        }
        return completed
    }

    @discardableResult
    private func start() -> Attempt {
        let tappedAt = timeline.now()
        current?.cancel(.superseded, at: tappedAt)
        let attempt = Attempt(tappedAt: tappedAt)
        current = attempt
        isProcessing = true
        error = nil
        let task = Task { try await self.run(attempt) }
        attempt.task = task
        fetchTask = task
        return attempt
    }

    private func run(_ attempt: Attempt) async throws -> CompletedFetch {
        let startOffset = attempt.tappedAt
        do {
            try await recorder.record(FetchStart(id: attempt.id, offset: startOffset, timeout: timeout))
        } catch {
            // Without a recorded start the fetch would be missing from the
            // history, so the source is not asked at all.
            let failure = FetchRecordingError(fetch: attempt.id, underlying: error)
            show(failure, for: attempt)
            throw failure
        }

        let outcome: FetchOutcome
        let cause: FetchEnd.Cause
        var endOffset: Duration
        var response: SourceResponse?
        do {
            let answer = try await self.answer(deadline: timeout.map { startOffset + $0 })
            // A source that ignores cancellation may still answer; the fetch
            // was cancelled at the tap all the same, so the answer is dropped.
            if attempt.cancellation != nil { throw CancellationError() }
            outcome = .succeeded(answer.value)
            cause = .answer(answer.value)
            endOffset = timeline.now()
            response = answer.response
        } catch is FetchTimedOut {
            outcome = .timedOut
            cause = .timeout
            endOffset = startOffset + (timeout ?? .zero)
        } catch where error is CancellationError || Task.isCancelled {
            let (reason, at) = attempt.cancellation ?? (.user, timeline.now())
            outcome = .cancelled(reason)
            cause = reason == .superseded ? .fetchTap : .cancelTap
            endOffset = at
        } catch {
            let message = Self.message(for: error)
            outcome = .failed(message)
            cause = .failure(message)
            endOffset = timeline.now()
            response = (error as? any SourceResponseError)?.response
        }

        let completed = CompletedFetch(
            id: attempt.id, outcome: outcome, startOffset: startOffset, duration: endOffset - startOffset
        )
        do {
            try await recorder.record(FetchEnd(
                id: attempt.id, offset: endOffset, duration: completed.duration, outcome: outcome,
                cause: cause, response: response
            ))
        } catch {
            let failure = FetchRecordingError(fetch: attempt.id, underlying: error)
            show(failure, for: attempt)
            throw failure
        }
        show(outcome, for: attempt)
        return completed
    }

    /// The client's answer, raced against the deadline on the clock.
    private func answer(deadline: Duration?) async throws -> SourceAnswer {
        let client = self.client
        guard let deadline else { return try await client.fetchAnswer() }
        let timeline = self.timeline
        return try await withThrowingTaskGroup(of: SourceAnswer.self) { group in
            group.addTask { try await client.fetchAnswer() }
            group.addTask {
                // Until the deadline, not for the timeout from now: the
                // timer fires at the same moment however late it starts.
                try await timeline.sleep(until: deadline)
                throw FetchTimedOut()
            }
            // The first child to finish decides; the other is cancelled.
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private func show(_ outcome: FetchOutcome, for attempt: Attempt) {
        guard finish(attempt) else { return }
        switch outcome {
        case .succeeded(let value):
            number = value
        case .failed(let message):
            error = message
        case .cancelled:
            number = nil
            error = "Fetch cancelled"
        case .timedOut:
            number = nil
            error = "Fetch timed out after \(timeout.map(Self.format) ?? "its timeout")"
        case .interrupted:
            error = "Fetch interrupted"
        }
    }

    private func show(_ failure: FetchRecordingError, for attempt: Attempt) {
        guard finish(attempt) else { return }
        error = failure.description
    }

    /// Hands the screen back if `attempt` still owns it; false when a newer
    /// fetch has replaced it.
    private func finish(_ attempt: Attempt) -> Bool {
        guard current === attempt else { return false }
        current = nil
        isProcessing = false
        return true
    }

    private static func message(for error: any Error) -> String {
        if let localized = (error as? any LocalizedError)?.errorDescription { return localized }
        return String(describing: error)
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}

/// One fetch of the view state: when it was tapped, and why and when it was
/// cancelled, if it was. The cancellation is set from any thread (a task's
/// cancellation handler) and only the first one counts.
private final class Attempt: Sendable {
    /// Time-ordered, so recording it appends to the history's `id` index.
    let id = UUID.timeOrdered()
    let tappedAt: Duration
    private let state = Mutex<(cancellation: (CancelReason, Duration)?, task: Task<CompletedFetch, any Error>?)>((nil, nil))

    init(tappedAt: Duration) {
        self.tappedAt = tappedAt
    }

    var task: Task<CompletedFetch, any Error>? {
        get { state.withLock { $0.task } }
        set { state.withLock { $0.task = newValue } }
    }

    var value: CompletedFetch {
        get async throws {
            guard let task else { throw CancellationError() }
            return try await task.value
        }
    }

    var cancellation: (CancelReason, Duration)? { state.withLock { $0.cancellation } }

    func cancel(_ reason: CancelReason, at offset: Duration) {
        let task = state.withLock { state -> Task<CompletedFetch, any Error>? in
            if state.cancellation == nil { state.cancellation = (reason, offset) }
            return state.task
        }
        task?.cancel()
    }
}

private struct FetchTimedOut: Error {}
