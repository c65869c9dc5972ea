/// A source of numbers for `FetchViewState`.
///
/// An actor protocol, so a client can keep state (a session, a counter)
/// safely. Implementations must honour task cancellation: a cancelled fetch
/// should end promptly by throwing (`CancellationError` or, for URLSession on
/// Linux, `URLError(.cancelled)`).
public protocol APIClient: Actor {
    func fetchRandomNumber() async throws -> Int
}
