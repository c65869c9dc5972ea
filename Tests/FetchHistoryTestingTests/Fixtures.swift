import FetchHistoryTesting
import Observation

/// A client protocol of the kind an app declares for itself.
protocol NumberAPI: Actor {
    func fetchRandomNumber() async throws -> Int
}

// The kit's stubs already have `fetchRandomNumber()` for Void → Int, so
// adopting an app's protocol takes one line each.
extension ContinuationStub: NumberAPI where Argument == Void, Value == Int {}
extension YieldingStub: NumberAPI where Argument == Void, Value == Int {}

/// The article's second view state: it keeps its Task, sets `isProcessing`
/// *inside* it (so a test cannot see it right after the tap), and shows an
/// error when cancelled.
@MainActor @Observable
final class SecondViewState {
    private(set) var number: Int?
    private(set) var isProcessing = false
    private(set) var error: String?
    @ObservationIgnored private(set) var task: Task<Void, Never>?
    @ObservationIgnored private let api: any NumberAPI

    init(api: any NumberAPI) {
        self.api = api
    }

    func fetchButtonTapped() {
        task = Task {
            isProcessing = true
            defer { isProcessing = false }
            do {
                number = try await api.fetchRandomNumber()
                error = nil
            } catch is CancellationError {
                error = "Cancelled"
            } catch {
                self.error = "Failed"
            }
        }
    }

    func cancelButtonTapped() {
        task?.cancel()
    }

    /// What its screen shows.
    struct Screen: Equatable, Sendable {
        var number: Int?
        var isProcessing = false
        var error: String?
    }

    var screen: Screen { Screen(number: number, isProcessing: isProcessing, error: error) }
}

/// A plain observable value to record.
@MainActor @Observable
final class Counter {
    var value = 0
    var label = ""
}
