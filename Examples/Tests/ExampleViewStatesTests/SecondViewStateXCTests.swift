import ExampleViewStates
import FetchHistoryTesting
import XCTest

/// The kit works the same under XCTest: its failures (a state not taken, a
/// timeout) are reported to whichever framework runs the test.
final class SecondViewStateXCTests: XCTestCase {
    @MainActor
    func testCancelStopsTheFetchAndSaysSo() async throws {
        let api = ContinuationStub<Void, Int>()
        let viewState = SecondViewState(api: api)
        let isProcessing = StateRecorder { viewState.isProcessing }
        let error = StateRecorder { viewState.error }

        viewState.fetchButtonTapped()
        let processing = [try await isProcessing.next(), try await isProcessing.next()]
        XCTAssertEqual(processing, [false, true])
        try await api.waitUntilCalled()
        viewState.cancelButtonTapped()

        let afterCancel = try await isProcessing.next()
        XCTAssertFalse(afterCancel)
        let errors = [try await error.next(), try await error.next()]
        XCTAssertEqual(errors, [nil, "Cancelled"])
        isProcessing.expectNoMoreChanges()
        error.expectNoMoreChanges()
    }
}
