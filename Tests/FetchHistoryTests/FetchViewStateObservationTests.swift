import FetchHistory
import FetchHistoryTesting
import Observation
import Synchronization
import Testing

/// The view state's properties are observed one by one, as `@Observable`
/// would observe them: a screen that reads one is told when that one
/// changes, and not when a write leaves it as it was.
@MainActor
@Suite
struct FetchViewStateObservationTests {
    /// How many times a change of what `read` reads was announced.
    final class Announcements: Sendable {
        let count = Atomic(0)
    }

    /// Tracks `read`, again at each announcement, before the change is made
    /// (the view state changes on the main actor): every change is counted.
    func track(_ read: @escaping @MainActor () -> Void) -> Announcements {
        let announcements = Announcements()
        @Sendable func observe() {
            MainActor.assumeIsolated {
                withObservationTracking(read) {
                    announcements.count.add(1, ordering: .relaxed)
                    observe()
                }
            }
        }
        observe()
        return announcements
    }

    @Test func eachPropertyAnnouncesItsOwnChanges() async throws {
        // Given a view state, and one observer for each property
        let client = APIClientStubWithCheckedContinuation()
        let viewState = FetchViewState(client: client, recorder: try await HistoryRecorder.inMemory(), clock: ManualClock())
        let value = track { _ = viewState.value }
        let isProcessing = track { _ = viewState.isProcessing }
        let error = track { _ = viewState.error }
        let fetchTask = track { _ = viewState.fetchTask }

        // When a fetch starts (the error, nil, is written nil again)
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled()

        // Then only the properties that changed announced it
        #expect(isProcessing.count.load(ordering: .relaxed) == 1)
        #expect(fetchTask.count.load(ordering: .relaxed) == 1)
        #expect(error.count.load(ordering: .relaxed) == 0)
        #expect(value.count.load(ordering: .relaxed) == 0)

        // When it fails
        await client.resume(throwing: SourceFailure(message: "HTTP 503"))
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the error and the end of processing are announced, the value not
        #expect(error.count.load(ordering: .relaxed) == 1)
        #expect(isProcessing.count.load(ordering: .relaxed) == 2)
        #expect(value.count.load(ordering: .relaxed) == 0)

        // When the next fetch answers
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)
        await client.resume(returning: 42)
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the value is announced, and the error's clearing
        #expect(value.count.load(ordering: .relaxed) == 1)
        #expect(error.count.load(ordering: .relaxed) == 2)
        #expect(fetchTask.count.load(ordering: .relaxed) == 2)
        #expect(viewState.number == 42)
    }
}
