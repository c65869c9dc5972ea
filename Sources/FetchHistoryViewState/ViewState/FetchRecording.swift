import FetchHistoryModel
import FoundationEssentials
import Synchronization

/// Records a view state's fetches as they happen — each tap, how each fetch
/// ended and when — for view states of your own. `FetchViewState` is built on
/// it.
///
/// Times are offsets on the injected clock, taken at the moment of each
/// cause: a fetch starts when it was tapped, a cancelled one ends when cancel
/// (or a newer fetch) was tapped, a timed-out one at its deadline. So call
/// `tap()` and `cancelTap()` in the button handlers themselves, not later in
/// a task. Each record is written before the call that makes it returns.
///
/// ```swift
/// func fetchButtonTapped() {
///     let fetch = recording.tap()            // a fetch still running is superseded, now
///     task = Task {
///         isProcessing = true
///         defer { isProcessing = false }
///         do { number = try await fetch.run { try await api.fetchRandomNumber() } }
///         catch is CancellationError { error = "Cancelled" }
///         catch { self.error = "\(error)" }
///     }
/// }
///
/// func cancelButtonTapped() {
///     recording.cancelTap()                  // recorded as cancelled (user), now
///     task?.cancel()
/// }
/// ```
public final class FetchRecording: Sendable {
    let recorder: any FetchRecorder
    let timeline: ClockTimeline
    /// The deadline each fetch gets after its tap; a fetch that runs longer
    /// ends as `timed-out`.
    public let timeout: Duration?
    /// The recorder's source, session and host, for the fetches' spans.
    let labels: RecordingLabels
    /// Where `RecordedFetch.run(_:)` and a `FetchViewState`'s fetches do
    /// their work between awaits: one serial queue, so a fetch's steps
    /// follow each other on one thread instead of waking the pool's.
    package let executor = SerialQueueExecutor(label: "fetch-history.recording")
    /// The fetch tapped last, until it ends: what a tap on cancel, or a newer
    /// fetch, ends. Held weakly: the fetch holds its recording, and a fetch
    /// its caller let go without an end must go (its deinit ends its span).
    private let current = Mutex(TappedFetch())

    /// - Parameters:
    ///   - recorder: where each transition is written; `HistoryRecorder` writes to SQLite.
    ///   - clock: the clock for timeouts and recorded times; a test clock makes them exact.
    ///   - timeout: the deadline each fetch gets; nil for none.
    public init(recorder: any FetchRecorder, clock: any Clock<Duration> = ContinuousClock(), timeout: Duration? = nil) {
        self.recorder = recorder
        self.timeline = ClockTimeline(clock)
        self.timeout = timeout
        self.labels = recorder.labels
    }

    /// Time on the recording's clock since it was made.
    public var now: Duration { timeline.now() }

    /// Fetch was tapped, now: returns the new fetch. A fetch still running
    /// is to end cancelled (superseded) at this moment.
    public func tap() -> RecordedFetch {
        let tappedAt = now
        let (fetch, superseded) = current.withLock { current in
            // A fetch that has ended wrote its start long ago: only one
            // still running can be behind.
            let superseded = current.fetch
            let fetch = RecordedFetch(tappedAt: tappedAt, in: self, after: superseded?.startWritten)
            current.fetch = fetch
            return (fetch, superseded)
        }
        superseded?.noteCancel(.superseded, at: tappedAt)
        return fetch
    }

    /// Cancel was tapped, now: the fetch running, if any, is to end
    /// cancelled (user) at this moment. Cancel its task yourself.
    public func cancelTap() {
        let tappedAt = now
        current.withLock { $0.fetch }?.noteCancel(.user, at: tappedAt)
    }

    /// The fetch tapped last, while it runs.
    public var runningFetch: RecordedFetch? {
        current.withLock { $0.fetch }
    }

    /// `fetch` has ended: it no longer answers to cancel taps.
    func ended(_ fetch: RecordedFetch) {
        current.withLock { current in
            if current.fetch === fetch { current.fetch = nil }
        }
    }
}

/// The fetch tapped last, not kept alive by the recording.
private struct TappedFetch {
    weak var fetch: RecordedFetch?
}
