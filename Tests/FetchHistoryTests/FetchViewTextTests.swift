import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// An app's own words replace every text the screen shows; the history
/// records the failure text the app chose.
@MainActor @Suite struct FetchViewTextTests {
    static let french = FetchViewText(
        notFetched: "Pas encore", cancelled: "Annulé", timedOut: { "Trop lent (\($0.components.seconds) s)" },
        interrupted: "Interrompu", failure: { _ in "Échec" }
    )

    struct Refused: Error {}

    @Test func theScreenSaysWhatTheAppsTextSays() async throws {
        // Given a number screen in French, with a 2 s timeout, on a test clock
        let client = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(2), text: Self.french)
        #expect(viewState.numberLabel == "Pas encore")

        // When a fetch is cancelled, one times out and one fails
        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 1)
        viewState.cancelButtonTapped()
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        let cancelled = viewState.error

        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 2)
        try await clock.waitUntilSleeping()
        clock.advance(by: .seconds(2))
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        let timedOut = viewState.error

        viewState.fetchButtonTapped()
        try await client.waitUntilCalled(times: 3)
        await client.resume(throwing: Refused())
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then each is said in French, and the failure is recorded in French too
        #expect(cancelled == "Annulé")
        #expect(timedOut == "Trop lent (2 s)")
        #expect(viewState.error == "Échec")
        #expect(viewState.numberLabel == "Pas encore")
        #expect(try await recorder.timeline().last == .ended(3, .failed("Échec"), at: .seconds(2)))
    }
}
