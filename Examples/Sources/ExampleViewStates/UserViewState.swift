import Observation

/// A profile screen: loads a `User`, says so when the network is slow, and
/// lets the user give up. Time runs on an injected clock, so a test steps it.
@MainActor
@Observable
public final class UserViewState {
    public enum Phase: Equatable, Sendable {
        case idle
        case loading
        /// Still loading after `slowAfter`: the screen says so.
        case slow
        case loaded(User)
        case failed(String)
    }

    public private(set) var phase: Phase = .idle
    @ObservationIgnored public private(set) var task: Task<Void, Never>?
    /// Which load owns the screen: a load, or cancel, makes a new one. A
    /// source may answer after it was cancelled, and a slow hint may wake
    /// before its load's cancellation reaches it; neither writes to a screen
    /// a newer load owns.
    @ObservationIgnored private var generation = 0

    @ObservationIgnored private let api: any UserAPI
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private let slowAfter: Duration

    public init(api: any UserAPI, clock: any Clock<Duration> = ContinuousClock(), slowAfter: Duration = .seconds(2)) {
        self.api = api
        self.clock = clock
        self.slowAfter = slowAfter
    }

    /// Loads user `id`, cancelling a load still in flight.
    public func load(id: Int) {
        task?.cancel()
        generation += 1
        let current = generation
        phase = .loading
        // The hint's deadline is fixed at the tap, not when its task first
        // runs: the screen turns slow `slowAfter` after the user asked, and a
        // test clock advanced past it wakes the hint whenever it starts.
        let slowDeadline = Self.sleep(on: clock, for: slowAfter)
        task = Task {
            let slowHint = Task {
                try await slowDeadline()
                if generation == current, phase == .loading { phase = .slow }
            }
            defer { slowHint.cancel() }
            do {
                let user = try await api.user(id: id)
                guard generation == current else { return }
                phase = .loaded(user)
            } catch {
                // Cancelled, however the source says so (CancellationError, or URLError
                // .cancelled from URLSession on Linux): a newer load, or cancel, owns the screen.
                guard generation == current, !Task.isCancelled else { return }
                phase = .failed("Could not load user \(id)")
            }
        }
    }

    public func cancelButtonTapped() {
        task?.cancel()
        generation += 1
        phase = .idle
    }

    /// A sleep until `duration` from now on `clock`.
    private static func sleep<C: Clock<Duration>>(on clock: C, for duration: Duration) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: duration)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }
}
