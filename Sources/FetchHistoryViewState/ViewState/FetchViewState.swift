import FetchHistoryModel
import FoundationEssentials
import Observation
import Synchronization

/// A screen's state for fetching a value of any type: start, cancel, show
/// the result — every fetch, cancellation, timeout and error recorded as it
/// happens, so a session can be listed, replayed and tested.
///
/// Every fetch is reported to the injected `FetchRecorder` as it starts and
/// ends, before the screen changes. Time (timeouts, intervals, the recorded
/// offsets) runs on the injected clock, so tests use a test clock. Recorded
/// times are the times of what caused them (see `FetchRecording`), so a
/// session replays exactly.
///
/// ```swift
/// let viewState = FetchViewState(recorder: recorder, timeout: .seconds(5)) {
///     try await api.user(id: 7)
/// }
/// viewState.fetchButtonTapped()   // starts a fetch in `fetchTask`
/// viewState.cancelButtonTapped()  // cancels it; recorded as cancelled (user)
/// ```
///
/// For numbers from an `APIClient`, `FetchViewState(client:recorder:)` gives
/// the same screen with `number` and `numberLabel`.
@MainActor
public final class FetchViewState<Value: Codable & Sendable>: Observable {
    // Observed by hand rather than with `@Observable`: in a generic class a
    // key-path literal is built anew at every use, and the macro's accessors
    // use one on every read and write — 18% of a `fetch`'s instructions
    // (callgrind). These are built once, with the view state. As with the
    // macro, a write that changes nothing Equatable notifies no one.

    /// The last value fetched; cleared when a fetch is cancelled or times out.
    public private(set) var value: Value? {
        get { observe(paths.value, storedValue) }
        set { change(paths.value, notifying: true) { $0.storedValue = newValue } }
    }
    /// True while a fetch is in flight.
    public private(set) var isProcessing: Bool {
        get { observe(paths.isProcessing, storedIsProcessing) }
        set { change(paths.isProcessing, notifying: newValue != storedIsProcessing) { $0.storedIsProcessing = newValue } }
    }
    /// What went wrong with the last fetch, as shown to the user.
    public private(set) var error: String? {
        get { observe(paths.error, storedError) }
        set { change(paths.error, notifying: newValue != storedError) { $0.storedError = newValue } }
    }
    /// The task of the latest fetch started.
    public private(set) var fetchTask: Task<CompletedFetch, any Error>? {
        get { observe(paths.fetchTask, storedFetchTask) }
        set { change(paths.fetchTask, notifying: newValue != storedFetchTask) { $0.storedFetchTask = newValue } }
    }

    /// The words the screen uses.
    public let text: FetchViewText
    /// The recording of this view state's fetches.
    public let recording: FetchRecording
    private let source: @Sendable () async throws -> SourceAnswer<Value>
    /// The fetch that owns the screen; an older one ending changes nothing.
    private var current: Attempt?

    private var storedValue: Value?
    private var storedIsProcessing = false
    private var storedError: String?
    private var storedFetchTask: Task<CompletedFetch, any Error>?
    private let observers = ObservationRegistrar()
    private let paths = ObservedPaths()

    /// The key paths of the observed properties.
    @MainActor private struct ObservedPaths {
        let value: KeyPath<FetchViewState, Value?> = \.value
        let isProcessing: KeyPath<FetchViewState, Bool> = \.isProcessing
        let error: KeyPath<FetchViewState, String?> = \.error
        let fetchTask: KeyPath<FetchViewState, Task<CompletedFetch, any Error>?> = \.fetchTask
    }

    /// `stored`, its reading noted for whoever observes `path`.
    private func observe<Member>(_ path: KeyPath<FetchViewState, Member>, _ stored: Member) -> Member {
        observers.access(self, keyPath: path)
        return stored
    }

    /// Makes `change`, telling those who observe `path` when `notifying`.
    private func change<Member>(
        _ path: KeyPath<FetchViewState, Member>, notifying: Bool, _ change: (FetchViewState) -> Void
    ) {
        guard notifying else { return change(self) }
        observers.withMutation(of: self, keyPath: path) { change(self) }
    }

    /// - Parameters:
    ///   - recorder: where each transition is reported; `HistoryRecorder` writes it to SQLite.
    ///   - clock: the clock for timeouts, intervals and recorded times.
    ///   - timeout: cancels a fetch that runs longer, recorded as `timed-out`.
    ///   - text: the words the screen shows.
    ///   - fetch: asks the source for a value; must honour cancellation.
    public convenience init(
        recorder: any FetchRecorder, clock: any Clock<Duration> = ContinuousClock(), timeout: Duration? = nil,
        text: FetchViewText = .english, fetch: @escaping @Sendable () async throws -> Value
    ) {
        self.init(recorder: recorder, clock: clock, timeout: timeout, text: text, fetchAnswer: { SourceAnswer(value: try await fetch()) })
    }

    /// Like `init(recorder:clock:timeout:text:fetch:)`, for a source that
    /// reports what came with the value (an HTTP status and size), which is
    /// recorded with the fetch.
    public init(
        recorder: any FetchRecorder, clock: any Clock<Duration> = ContinuousClock(), timeout: Duration? = nil,
        text: FetchViewText = .english, fetchAnswer: @escaping @Sendable () async throws -> SourceAnswer<Value>
    ) {
        self.recording = FetchRecording(recorder: recorder, clock: clock, timeout: timeout)
        self.text = text
        self.source = fetchAnswer
    }

    /// Starts a fetch in `fetchTask`. A fetch still in flight is cancelled
    /// first and recorded as cancelled, reason superseded.
    public func fetchButtonTapped() {
        start()
    }

    /// Cancels the fetch in flight, if any; recorded as cancelled, reason user.
    public func cancelButtonTapped() {
        guard let current else { return }
        recording.cancelTap()
        current.task?.cancel()
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
        return try await withTaskCancellationHandler {
            try await attempt.value
        } onCancel: {
            attempt.fetch.noteCancel(.user)
            attempt.task?.cancel()
        }
    }

    /// Runs `count` fetches one after the other, waiting `interval` on the
    /// clock between the end of one and the start of the next. Stops early
    /// when a fetch is cancelled by the user or the calling task is cancelled.
    @discardableResult
    public func fetch(
        count: Int, interval: Duration, onEach: (CompletedFetch) -> Void = { _ in }
    ) async throws -> [CompletedFetch] {
        try await recording.fetchInSeries(count: count, interval: interval, onEach: onEach) { try await fetch() }
    }

    @discardableResult
    private func start() -> Attempt {
        // The tap notes the older fetch as superseded before its task is
        // cancelled: cancelled first, its own catch would call it the user's.
        let attempt = Attempt(recording.tap())
        current?.task?.cancel()
        current = attempt
        isProcessing = true
        error = nil
        // On the recording's executor, where `perform` does its steps.
        let task = Task(executorPreference: recording.executor) { try await self.run(attempt) }
        attempt.task = task
        fetchTask = task
        return attempt
    }

    private func run(_ attempt: Attempt) async throws -> CompletedFetch {
        let failure = text.failure
        do {
            let (completed, ending) = try await attempt.fetch.perform(failureMessage: failure, source)
            show(ending, for: attempt)
            return completed
        } catch {
            if finish(attempt) { self.error = error.description }
            throw error
        }
    }

    private func show(_ ending: RecordedFetch.Ending<Value>, for attempt: Attempt) {
        guard finish(attempt) else { return }
        switch ending {
        case .answered(let answer):
            value = answer.value
        case .failed(let message, _):
            error = message
        case .cancelled:
            value = nil
            error = text.cancelled
        case .timedOut(let timeout):
            value = nil
            error = text.timedOut(timeout)
        }
    }

    /// Hands the screen back if `attempt` still owns it; false when a newer
    /// fetch has replaced it.
    private func finish(_ attempt: Attempt) -> Bool {
        guard current === attempt else { return false }
        current = nil
        isProcessing = false
        return true
    }
}

/// One fetch of the view state and the task running it.
private final class Attempt: Sendable {
    let fetch: RecordedFetch
    private let runningTask = Mutex<Task<CompletedFetch, any Error>?>(nil)

    init(_ fetch: RecordedFetch) {
        self.fetch = fetch
    }

    var task: Task<CompletedFetch, any Error>? {
        get { runningTask.withLock { $0 } }
        set { runningTask.withLock { $0 = newValue } }
    }

    var value: CompletedFetch {
        get async throws {
            guard let task else { throw CancellationError() }
            return try await task.value
        }
    }
}
