import FetchHistoryModel
import FoundationEssentials
import Synchronization
import Tracing

/// One fetch of a `FetchRecording`, from its tap to its end.
///
/// Either let `run(_:)` do everything — record the start, ask the source
/// (raced against the timeout), record how it ended — or record each step
/// yourself: `start()`, then exactly one of `succeeded(_:)`, `failed(_:)`,
/// `cancelled()` or `timedOut()`. Each writes its record before returning.
///
/// ```swift
/// let fetch = recording.tap()
/// try await fetch.start()
/// do {
///     let user = try await api.user(id: 7)
///     try await fetch.succeeded(user)
/// } catch is CancellationError {
///     try await fetch.cancelled()      // at the moment cancel was tapped
/// } catch {
///     try await fetch.failed(error)
/// }
/// ```
public final class RecordedFetch: Sendable {
    /// The id the history records the fetch under.
    public let id: UUID
    /// When fetch was tapped, on the recording's clock.
    public let tappedAt: Duration
    private let recording: FetchRecording
    private let cancel = Mutex<FetchCancellation?>(nil)
    /// Done once this fetch's start is written, or it is gone without one.
    let startWritten = StartTurn()
    /// The start the fetch tapped before this one, still running then, writes first.
    private let previousStart: StartTurn?
    /// The fetch as a span of the app's tracer, from the tap.
    private let span: FetchSpan
    /// Set once the span has ended.
    private let spanEnded = Atomic(false)

    init(tappedAt: Duration, in recording: FetchRecording, after previousStart: StartTurn?) {
        let id = UUID.timeOrdered()
        self.id = id
        self.tappedAt = tappedAt
        self.recording = recording
        self.previousStart = previousStart
        self.span = FetchSpan(fetch: id, tappedAt: tappedAt, timeout: recording.timeout, labels: recording.labels)
    }

    deinit {
        // A fetch let go without a start holds no later fetch back.
        startWritten.finish()
        // Nor leaves its span open: let go without an end, it ends now, with no outcome.
        if !spanEnded.exchange(true, ordering: .relaxed) { span.abandon() }
    }

    /// Why and when the fetch is to end cancelled, once noted.
    public var cancellation: FetchCancellation? { cancel.withLock { $0 } }

    /// Notes, now, that the fetch is to end cancelled for `reason`: the
    /// first note counts. `FetchRecording.tap()` and `cancelTap()` note it
    /// for you; cancel the fetch's task yourself.
    public func noteCancel(_ reason: CancelReason) {
        noteCancel(reason, at: recording.now)
    }

    func noteCancel(_ reason: CancelReason, at offset: Duration) {
        cancel.withLock { cancel in
            if cancel == nil { cancel = FetchCancellation(reason: reason, at: offset) }
        }
    }

    /// The deadline, on the recording's clock, if the recording has a timeout.
    public var deadline: Duration? { recording.timeout.map { tappedAt + $0 } }

    // MARK: - All in one

    /// Records the start, runs `source` raced against the deadline, records
    /// how the fetch ended, and returns the value.
    ///
    /// - Throws: `CancellationError` when it was cancelled (recorded at the
    ///   tap that cancelled it; an answer that arrives anyway is dropped),
    ///   `FetchTimeoutError` at the deadline, the source's own error when it
    ///   failed (recorded with `failureMessage`), `FetchRecordingError` when
    ///   the history refused a record (the source is not asked without a
    ///   recorded start).
    public func run<Value: Encodable & Sendable>(
        failureMessage: @Sendable (any Error) -> String = FetchViewText.english.failure,
        _ source: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let (_, ending) = try await withTaskExecutorPreference(recording.executor) { () async throws(FetchRecordingError) in
            try await perform(failureMessage: failureMessage) { SourceAnswer(value: try await source()) }
        }
        switch ending {
        case .answered(let answer): return answer.value
        case .failed(_, let error): throw error
        case .cancelled: throw CancellationError()
        case .timedOut(let timeout): throw FetchTimeoutError(timeout: timeout)
        }
    }

    /// How a fetch run by `perform` ended.
    enum Ending<Value: Sendable>: Sendable {
        case answered(SourceAnswer<Value>)
        case failed(message: String, error: any Error)
        case cancelled(CancelReason)
        case timedOut(Duration)
    }

    /// `run`, returning what the view state shows. Call it with the
    /// recording's executor preferred (`FetchRecording.executor`).
    func perform<Value: Encodable & Sendable>(
        failureMessage: @Sendable (any Error) -> String,
        _ source: @escaping @Sendable () async throws -> SourceAnswer<Value>
    ) async throws(FetchRecordingError) -> (CompletedFetch, Ending<Value>) {
        // Without a recorded start the fetch would be missing from the
        // history, so the source is not asked at all.
        try await start()
        let ending: Ending<Value>
        do {
            let answer = try await answer(from: source)
            // A source that ignores cancellation may still answer; the fetch
            // was cancelled at the tap all the same, so the answer is dropped.
            if cancellation != nil { throw CancellationError() }
            ending = .answered(answer)
        } catch let timeout as FetchTimeoutError {
            ending = .timedOut(timeout.timeout)
        } catch where error is CancellationError || Task.isCancelled {
            noteCancel(.user)
            ending = .cancelled(cancellation?.reason ?? .user)
        } catch {
            ending = .failed(message: failureMessage(error), error: error)
        }
        let completed: CompletedFetch
        switch ending {
        case .answered(let answer): completed = try await succeeded(answer.value, response: answer.response)
        case .failed(let message, let error): completed = try await failed(message, response: (error as? any SourceResponseError)?.response)
        case .cancelled: completed = try await cancelled()
        case .timedOut: completed = try await timedOut()
        }
        return (completed, ending)
    }

    /// The source's answer, raced against the deadline on the clock.
    private func answer<Value: Sendable>(
        from source: @escaping @Sendable () async throws -> SourceAnswer<Value>
    ) async throws -> SourceAnswer<Value> {
        // In the span's context, so that the spans the source makes are its children.
        guard let context = span.propagatedContext else { return try await raced(source) }
        return try await InstrumentationContext.withValue(context) { try await raced(source) }
    }

    /// The source's answer, or `FetchTimeoutError` at the deadline.
    private func raced<Value: Sendable>(
        _ source: @escaping @Sendable () async throws -> SourceAnswer<Value>
    ) async throws -> SourceAnswer<Value> {
        guard let deadline, let timeout = recording.timeout else { return try await source() }
        let timeline = recording.timeline
        return try await withThrowingTaskGroup(of: SourceAnswer<Value>.self) { group in
            group.addTask { try await source() }
            group.addTask {
                // Until the deadline, not for the timeout from now: the timer
                // fires at the same moment however late it starts.
                try await timeline.sleep(until: deadline)
                throw FetchTimeoutError(timeout: timeout)
            }
            // The first child to finish decides; the other is cancelled.
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    // MARK: - Step by step

    /// Records that the fetch started, at its tap. Waits first for the start
    /// of the fetch tapped before it, if that one was still running at the
    /// tap, so the history has them in tap order: call `start()` for each
    /// fetch you tap, or let the fetch go.
    public func start() async throws(FetchRecordingError) {
        await previousStart?.wait()
        defer { startWritten.finish() }
        try await write(FetchStart(id: id, offset: tappedAt, timeout: recording.timeout))
    }

    /// Records that the source answered `value`, now.
    @discardableResult
    public func succeeded<Value: Encodable>(
        _ value: Value, response: SourceResponse? = nil
    ) async throws(FetchRecordingError) -> CompletedFetch {
        let recorded: FetchValue
        do {
            recorded = try FetchValue(encoding: value)
        } catch {
            let message = "the answer could not be recorded: \(error)"
            _ = try await end(at: recording.now, .failed(message), cause: .failure(message), response: response)
            throw FetchRecordingError(fetch: id, underlying: error)
        }
        return try await end(at: recording.now, .succeeded(recorded), cause: .answer(recorded), response: response)
    }

    /// Records that the source failed with `error`, now, with the message a
    /// screen shows for it.
    @discardableResult
    public func failed(_ error: any Error, response: SourceResponse? = nil) async throws(FetchRecordingError) -> CompletedFetch {
        try await failed(FetchViewText.english.failure(error), response: response ?? (error as? any SourceResponseError)?.response)
    }

    /// Records that the source failed, now, with `message`.
    @discardableResult
    public func failed(_ message: String, response: SourceResponse? = nil) async throws(FetchRecordingError) -> CompletedFetch {
        try await end(at: recording.now, .failed(message), cause: .failure(message), response: response)
    }

    /// Records that the fetch was cancelled, at the moment noted by the tap
    /// that cancelled it (or now, as the user's, if none was noted).
    @discardableResult
    public func cancelled() async throws(FetchRecordingError) -> CompletedFetch {
        noteCancel(.user)
        let cancellation = self.cancellation ?? FetchCancellation(reason: .user, at: recording.now)
        return try await end(
            at: cancellation.at, .cancelled(cancellation.reason),
            cause: cancellation.reason == .superseded ? .fetchTap : .cancelTap
        )
    }

    /// Records that the fetch timed out, at its deadline (now, without a timeout).
    @discardableResult
    public func timedOut() async throws(FetchRecordingError) -> CompletedFetch {
        try await end(at: deadline ?? recording.now, .timedOut, cause: .timeout)
    }

    private func end(
        at offset: Duration, _ outcome: FetchOutcome, cause: FetchEnd.Cause, response: SourceResponse? = nil
    ) async throws(FetchRecordingError) -> CompletedFetch {
        recording.ended(self)
        let completed = CompletedFetch(id: id, outcome: outcome, startOffset: tappedAt, duration: offset - tappedAt)
        defer {
            if !spanEnded.exchange(true, ordering: .relaxed) { span.end(at: offset, outcome, cause: cause, response: response) }
        }
        try await write(FetchEnd(
            id: id, offset: offset, duration: completed.duration, outcome: outcome, cause: cause, response: response
        ))
        return completed
    }

    private func write(_ start: FetchStart) async throws(FetchRecordingError) {
        do { try await recording.recorder.record(start) } catch { throw FetchRecordingError(fetch: id, underlying: error) }
    }

    private func write(_ end: FetchEnd) async throws(FetchRecordingError) {
        do { try await recording.recorder.record(end) } catch { throw FetchRecordingError(fetch: id, underlying: error) }
    }
}

/// Why and when a fetch was cancelled: the moment of the tap that did it.
public struct FetchCancellation: Hashable, Sendable {
    public var reason: CancelReason
    /// On the recording's clock.
    public var at: Duration
}

/// A fetch ran past its deadline.
public struct FetchTimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
    public var timeout: Duration
    public var description: String { "the fetch timed out after \(timeout)" }
}
