import FetchHistory

/// A `YieldingStub` that is an `APIClient`, for `FetchViewState`: each
/// `fetchRandomNumber()` yields once, then answers.
///
/// ```swift
/// let viewState = FetchViewState(client: APIClientStubWithTaskYield(returning: 42), recorder: recorder)
/// let completed = try await viewState.fetch()
/// ```
public typealias APIClientStubWithTaskYield = YieldingStub<Void, Int>

extension YieldingStub: APIClient where Argument == Void, Value == Int {
    public func fetchRandomNumber() async throws -> Int {
        try await call()
    }
}
