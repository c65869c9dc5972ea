import FetchHistory

/// A `ContinuationStub` that is an `APIClient`, for `FetchViewState`: each
/// `fetchRandomNumber()` waits until the test answers it.
///
/// ```swift
/// let client = APIClientStubWithCheckedContinuation()
/// viewState.fetchButtonTapped()
/// try await client.waitUntilCalled()
/// #expect(viewState.isProcessing)
/// await client.resume(returning: 42)
/// ```
public typealias APIClientStubWithCheckedContinuation = ContinuationStub<Void, Int>

extension ContinuationStub: APIClient where Argument == Void, Value == Int {
    public func fetchRandomNumber() async throws -> Int {
        try await call()
    }
}
