import ExampleViewStates
import FetchHistoryTesting

// The kit's stubs are generic: adopting the app's own protocols takes a line
// each (the kit's stubs already have `fetchRandomNumber()` for Void → Int).
extension ContinuationStub: RandomNumberAPI where Argument == Void, Value == Int {}
extension YieldingStub: RandomNumberAPI where Argument == Void, Value == Int {}

extension ContinuationStub: UserAPI where Argument == Int, Value == User {
    public func user(id: Int) async throws -> User { try await call(id) }
}

/// What a stub source fails with.
struct ServerDown: Error, CustomStringConvertible {
    var description: String { "the server is down" }
}
