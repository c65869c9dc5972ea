import FetchHistoryModel

extension FetchRecording {
    /// Runs `count` fetches of `source` one after the other, waiting
    /// `interval` on the recording's clock between the end of one and the
    /// start of the next, and hands each to `onEach` as it is recorded.
    /// Stops early when a fetch is cancelled by the user or the calling task
    /// is cancelled; the fetch in flight then ends cancelled, at that moment,
    /// reason user unless another was noted first.
    ///
    /// What `FetchViewState.fetch(count:interval:onEach:)` does for a screen,
    /// for a loop with no screen: the fetches and `onEach` run on the
    /// recording's executor, never waiting for the main actor between two
    /// fetches (on Linux the main actor is a dispatch queue that a worker
    /// thread must be woken for, two or three times a fetch: 100 recorded
    /// HTTP fetches took 11% less time without it).
    package func fetch<Value: Encodable & Sendable>(
        count: Int, interval: Duration,
        failureMessage: @escaping @Sendable (any Error) -> String = FetchViewText.english.failure,
        source: @escaping @Sendable () async throws -> SourceAnswer<Value>,
        onEach: @escaping @Sendable (CompletedFetch) -> Void
    ) async throws -> [CompletedFetch] {
        try await withTaskExecutorPreference(executor) {
            try await fetchInSeries(count: count, interval: interval, onEach: onEach) {
                let fetch = tap()
                return try await withTaskCancellationHandler {
                    try await fetch.perform(failureMessage: failureMessage, source).0
                } onCancel: {
                    fetch.noteCancel(.user)
                }
            }
        }
    }

    /// The loop of both `fetch(count:interval:…)`s, in the caller's
    /// isolation: `fetchOne` runs and records one fetch.
    func fetchInSeries(
        count: Int, interval: Duration, isolation: isolated (any Actor)? = #isolation,
        onEach: (CompletedFetch) -> Void, _ fetchOne: () async throws -> CompletedFetch
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
            let fetch = try await fetchOne()
            completed.append(fetch)
            onEach(fetch)
            if fetch.outcome == .cancelled(.user) || Task.isCancelled { break }
        }
        return completed
    }
}
