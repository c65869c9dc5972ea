import FetchHistoryModel

/// A source of numbers for `FetchViewState`.
///
/// An actor protocol, so a client can keep state (a session, a counter)
/// safely. Implementations must honour task cancellation: a cancelled fetch
/// should end promptly by throwing (`CancellationError`, or whatever the
/// cancelled work threw: the view state records any error thrown after
/// cancellation as a cancellation).
public protocol APIClient: Actor {
    func fetchRandomNumber() async throws -> Int

    /// The number and what came with it (an HTTP status and size). The view
    /// state calls this one; the default answers `fetchRandomNumber()` alone.
    func fetchAnswer() async throws -> SourceAnswer<Int>

    /// The answer as the history records it, for a source that may answer
    /// more than numbers: the HTTP source answers any JSON value. The
    /// default is `fetchAnswer()`'s number.
    ///
    /// ```swift
    /// let viewState = FetchViewState(recorder: recorder, fetchAnswer: { try await client.fetchValue() })
    /// ```
    func fetchValue() async throws -> SourceAnswer<FetchValue>
}

extension APIClient {
    public func fetchAnswer() async throws -> SourceAnswer<Int> {
        SourceAnswer(value: try await fetchRandomNumber())
    }

    public func fetchValue() async throws -> SourceAnswer<FetchValue> {
        let answer = try await fetchAnswer()
        return SourceAnswer(value: FetchValue(answer.value), response: answer.response)
    }
}
