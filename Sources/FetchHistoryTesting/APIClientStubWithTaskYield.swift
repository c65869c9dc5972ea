import FetchHistory

/// An `APIClient` that yields once and then answers: under
/// `withMainSerialExecutor` a test can step a fetch with `Task.yield()` and
/// observe the in-flight state without continuations.
///
/// ```swift
/// await withMainSerialExecutor {
///     let viewState = FetchViewState(client: APIClientStubWithTaskYield(returning: 42), recorder: recorder)
///     viewState.fetchButtonTapped()
///     #expect(viewState.isProcessing)
///     await viewState.fetchTask?.value
/// }
/// ```
public actor APIClientStubWithTaskYield: APIClient {
    private let result: Result<Int, any Error>
    /// How many times `fetchRandomNumber()` has been called.
    public private(set) var callCount = 0

    public init(returning value: Int) {
        result = .success(value)
    }

    public init(throwing error: any Error) {
        result = .failure(error)
    }

    /// Yields, then throws `CancellationError` if the fetch was cancelled
    /// meanwhile, else answers the configured result.
    public func fetchRandomNumber() async throws -> Int {
        callCount += 1
        await Task.yield()
        try Task.checkCancellation()
        return try result.get()
    }
}
