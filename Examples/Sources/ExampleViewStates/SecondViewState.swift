import Observation

/// The article's second view state: the tap starts a `Task` the view state
/// keeps, so a cancel button can stop it. `isProcessing` is set *inside* the
/// Task, so right after the tap nothing has changed yet: tests wait for the
/// recorded states instead of guessing how many `Task.yield()`s it takes.
@MainActor
@Observable
public final class SecondViewState {
    public private(set) var number: Int?
    public private(set) var isProcessing = false
    public private(set) var error: String?
    @ObservationIgnored public private(set) var task: Task<Void, Never>?

    @ObservationIgnored private let api: any RandomNumberAPI

    public init(api: any RandomNumberAPI) {
        self.api = api
    }

    public func fetchButtonTapped() {
        task = Task {
            isProcessing = true
            defer { isProcessing = false }
            do {
                number = try await api.fetchRandomNumber()
                error = nil
            } catch is CancellationError {
                error = "Cancelled"
            } catch {
                self.error = "Could not fetch a number"
            }
        }
    }

    public func cancelButtonTapped() {
        task?.cancel()
    }
}
