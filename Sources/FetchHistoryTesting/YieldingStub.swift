/// Answers each call after one `Task.yield()`, throwing `CancellationError`
/// if the call was cancelled meanwhile: a source that is fast but not
/// instant, for tests that only care about the end of a fetch, or that
/// cancel it right after starting it.
///
/// ```swift
/// actor APIClientStub: APIClientProtocol {
///     let stub = YieldingStub<Void, Int>(returning: 42)
///     func fetchRandomNumber() async throws -> Int { try await stub.call() }
/// }
/// ```
///
/// To look at the view state while a call is in flight, use a
/// `StateRecorder` (the state set before the call is recorded before the
/// answer arrives) or a `ContinuationStub`.
public actor YieldingStub<Argument: Sendable, Value: Sendable> {
    private let result: Result<Value, any Error>
    /// How many calls were made, cancelled ones included.
    public private(set) var callCount = 0
    /// Every call's argument, in call order.
    public private(set) var arguments: [Argument] = []

    /// Every call answers `value`.
    public init(returning value: Value) {
        result = .success(value)
    }

    /// Every call fails with `error`.
    public init(throwing error: any Error) {
        result = .failure(error)
    }

    public func call(_ argument: Argument) async throws -> Value {
        callCount += 1
        arguments.append(argument)
        await Task.yield()
        try Task.checkCancellation()
        return try result.get()
    }
}

extension YieldingStub where Argument == Void {
    public func call() async throws -> Value {
        try await call(())
    }
}
