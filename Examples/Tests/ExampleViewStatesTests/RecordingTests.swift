import ExampleViewStates
import FetchHistoryTesting
import Foundation
import Testing

/// Recording an app's own view states: a `User` screen on the library's
/// view state, and the article's view state through the recording API.
@MainActor
@Suite struct RecordingTests {
    let ada = User(id: 7, name: "Ada")

    @Test func aUserScreenOnTheLibrarysViewStateRecordsTheUserWhole() async throws {
        // Given a User screen recording into a history file
        let folder = FileManager.default.temporaryDirectory.appending(path: "examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore(path: folder.appending(path: "history.sqlite").path, access: .create)
        let recorder = try await HistoryRecorder(store: store, source: "users")
        let api = ContinuationStub<Int, User>()
        let clock = ManualClock()
        let viewState = FetchViewState(recorder: recorder, clock: clock, timeout: .seconds(5)) {
            try await api.user(id: 7)
        }

        // When it loads Ada, 120 ms after the tap
        viewState.fetchButtonTapped()
        try await api.waitUntilCalled()
        clock.advance(by: .milliseconds(120))
        await api.resume(returning: ada)
        _ = try await withTimeout { try await viewState.fetchTask?.value }

        // Then the screen shows her, and the history holds her as JSON, name and all
        #expect(viewState.value == ada)
        let fetch = try #require(try await store.read { db in try db.fetches() }.first)
        #expect(fetch.outcome == .succeeded(try FetchValue(encoding: ada)))
        #expect(fetch.value?.json == #"{"id":7,"name":"Ada"}"#)
        #expect(try fetch.value?.decoded(as: User.self) == ada)
        #expect(fetch.durationMilliseconds == 120)
    }

    @Test func theArticlesViewStateRecordsItsCancelAtTheTap() async throws {
        // Given the article's view state with the recording API, on a clock the test moves
        let api = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = RecordedSecondViewState(api: api, recording: FetchRecording(recorder: recorder, clock: clock))

        // When a fetch answers, and the next is cancelled 30 ms after its tap
        viewState.fetchButtonTapped()
        try await api.waitUntilCalled()
        clock.advance(by: .milliseconds(100))
        await api.resume(returning: 4)
        await viewState.task?.value
        clock.advance(by: .milliseconds(900))
        viewState.fetchButtonTapped()
        try await api.waitUntilCalled(times: 2)
        clock.advance(by: .milliseconds(30))
        viewState.cancelButtonTapped()
        clock.advance(by: .seconds(5))     // however late the view state's catch runs
        await viewState.task?.value

        // Then both are in the history at the moments of their causes
        #expect(viewState.error == "Cancelled")
        #expect(try await recorder.timeline() == [
            .started(1, at: .zero), .ended(1, .succeeded(4), at: .milliseconds(100)),
            .started(2, at: .seconds(1)), .ended(2, .cancelled(.user), at: .milliseconds(1_030)),
        ])
    }

    @Test func aFieldReportReplaysThroughTheAppsOwnViewState() async throws {
        // Given a recorded User session, exported as a user would send it
        let recorder = try await HistoryRecorder.inMemory(source: "users")
        let api = ContinuationStub<Int, User>()
        let clock = ManualClock()
        let viewState = FetchViewState(recorder: recorder, clock: clock) { try await api.user(id: 7) }
        viewState.fetchButtonTapped()
        try await api.waitUntilCalled()
        clock.advance(by: .milliseconds(80))
        await api.resume(returning: ada)
        _ = try await withTimeout { try await viewState.fetchTask?.value }
        let exported = try await recorder.store.read { db in try db.fetches() }

        // When it is replayed through the app's FetchViewState<User>
        let replay = try SessionReplay(fetches: exported, origin: recorder.session.startedAt)
        let report = try await replay.run(as: User.self) { replay in
            FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, fetch: replay.fetch)
        }

        // Then it matches, showing the user; and as Ints it is refused, never matched
        #expect(report.matches, "\(report.differences)")
        #expect(report.steps.last?.valueLabel == #"{"id":7,"name":"Ada"}"#)
        await #expect(throws: ReplayError.self) {
            try await replay.run(as: Int.self) { replay in
                FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, fetch: replay.fetch)
            }
        }
    }
}
