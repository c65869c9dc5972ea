import ExampleViewStates
import FetchHistoryTesting
import Foundation
import Testing

@MainActor
@Suite struct NumberScreenTests {
    @Test func everyFetchIsRecordedInTheHistoryFile() async throws {
        // Given the screen recording into a new file, with a source the test answers
        let folder = FileManager.default.temporaryDirectory.appending(path: "examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = APIClientStubWithCheckedContinuation()
        let screen = try await NumberScreen(historyAt: folder.appending(path: "history.sqlite").path, client: client, clock: ManualClock())

        // When one fetch fails and the next is cancelled by the user
        screen.viewState.fetchButtonTapped()
        try await client.waitUntilCalled()
        await client.resume(throwing: ServerDown())
        _ = try await withTimeout { try await screen.viewState.fetchTask?.value }
        screen.viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)
        screen.viewState.cancelButtonTapped()
        _ = try await withTimeout { try await screen.viewState.fetchTask?.value }

        // Then both are in the history, and the failure is among the recent ones
        let recorded = try await screen.store.read { db in try db.fetches() }
        #expect(recorded.map(\.outcome) == [.cancelled(.user), .failed("the server is down")])
        #expect(try await screen.recentFailures().map(\.id) == [recorded[1].id])
    }
}
