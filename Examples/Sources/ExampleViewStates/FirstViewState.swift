import Observation

/// The article's first view state: the fetch is an `async` method the view
/// awaits (`.task { await viewState.fetchButtonTapped() }`), so a test can
/// await it too, or hold it in flight with a continuation stub.
@MainActor
@Observable
public final class FirstViewState {
    public private(set) var number: Int?
    public private(set) var isProcessing = false
    public private(set) var error: String?

    @ObservationIgnored private let api: any RandomNumberAPI

    public init(api: any RandomNumberAPI) {
        self.api = api
    }

    public func fetchButtonTapped() async {
        isProcessing = true
        defer { isProcessing = false }
        do {
            number = try await api.fetchRandomNumber()
            error = nil
        } catch {
            self.error = "Could not fetch a number"
        }
    }
}
