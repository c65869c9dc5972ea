import FetchHistory
import Observation

/// The article's second view state, recorded: the app keeps its own view
/// state and adds three lines — a tap and a cancel noted in the button
/// handlers (so each is recorded at the moment it happened), and the fetch
/// run through the recording.
@MainActor
@Observable
public final class RecordedSecondViewState {
    public private(set) var number: Int?
    public private(set) var isProcessing = false
    public private(set) var error: String?
    @ObservationIgnored public private(set) var task: Task<Void, Never>?

    @ObservationIgnored private let api: any RandomNumberAPI
    @ObservationIgnored private let recording: FetchRecording

    public init(api: any RandomNumberAPI, recording: FetchRecording) {
        self.api = api
        self.recording = recording
    }

    public func fetchButtonTapped() {
        let fetch = recording.tap()
        task = Task {
            isProcessing = true
            defer { isProcessing = false }
            do {
                number = try await fetch.run { try await self.api.fetchRandomNumber() }
                error = nil
            } catch is CancellationError {
                error = "Cancelled"
            } catch {
                self.error = "Could not fetch a number"
            }
        }
    }

    public func cancelButtonTapped() {
        recording.cancelTap()
        task?.cancel()
    }
}
