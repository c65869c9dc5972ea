import FetchHistory

/// An `APIClient` whose calls wait until the test answers them, so a test can
/// look at the view state while a fetch is in flight.
///
/// ```swift
/// let client = APIClientStubWithCheckedContinuation()
/// viewState.fetchButtonTapped()
/// try await client.waitUntilCalled()
/// #expect(viewState.isProcessing)
/// await client.resume(returning: 42)
/// ```
///
/// Like a real client it honours cancellation: a cancelled call ends at once
/// with `CancellationError`.
public actor APIClientStubWithCheckedContinuation: APIClient {
    private var pending: [(call: Int, continuation: CheckedContinuation<Int, any Error>)] = []
    private var callWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// How many times `fetchRandomNumber()` has been called.
    public private(set) var callCount = 0

    public init() {}

    /// Calls waiting for an answer.
    public var pendingCount: Int { pending.count }

    public func fetchRandomNumber() async throws -> Int {
        callCount += 1
        let call = callCount
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.append((call, continuation))
                notifyWaiters()
                // Cancelled before the continuation was stored: the handler
                // below found nothing to resume, so end the call here.
                if Task.isCancelled { finish(call, with: .failure(CancellationError())) }
            }
        } onCancel: {
            Task { await self.finish(call, with: .failure(CancellationError())) }
        }
    }

    /// Answers the newest waiting call with `value`. Returns false when no
    /// call is waiting: each call is answered at most once.
    @discardableResult
    public func resume(returning value: Int) -> Bool {
        resumeNewest(with: .success(value))
    }

    /// Fails the newest waiting call with `error`. Returns false when no call
    /// is waiting.
    @discardableResult
    public func resume(throwing error: any Error) -> Bool {
        resumeNewest(with: .failure(error))
    }

    /// Waits until `fetchRandomNumber()` has been called `count` times in all,
    /// failing with `TimeoutError` after `limit` of real time.
    public func waitUntilCalled(times count: Int = 1, limit: Duration = .seconds(5)) async throws {
        try await withTimeout(limit) { await self.callCountReaches(count) }
    }

    private func callCountReaches(_ count: Int) async {
        guard callCount < count else { return }
        await withCheckedContinuation { callWaiters.append((count, $0)) }
    }

    private func notifyWaiters() {
        let (ready, waiting) = (callWaiters.filter { $0.count <= callCount }, callWaiters.filter { $0.count > callCount })
        callWaiters = waiting
        for waiter in ready { waiter.continuation.resume() }
    }

    private func resumeNewest(with result: Result<Int, any Error>) -> Bool {
        guard let newest = pending.last else { return false }
        finish(newest.call, with: result)
        return true
    }

    private func finish(_ call: Int, with result: Result<Int, any Error>) {
        guard let index = pending.firstIndex(where: { $0.call == call }) else { return }
        pending.remove(at: index).continuation.resume(with: result)
    }
}
