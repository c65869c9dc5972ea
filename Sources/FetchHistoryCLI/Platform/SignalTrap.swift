import Dispatch
import FoundationEssentials
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Turns Ctrl-C (SIGINT) and SIGTERM into a cancellation, so the fetch in
/// flight is recorded as cancelled before the process exits. A second signal
/// ends the process at once, the default way.
///
/// The signals are ignored first so the default action cannot kill the
/// process before the dispatch source sees them; `raise` does nothing from a
/// dispatch thread, so the second signal re-sends itself with `kill`.
/// `beforeExit` runs just before that, to tidy the terminal (a progress
/// line), since nothing else will run.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]
    private let state = SignalState()

    init(
        signals: [Int32] = [SIGINT, SIGTERM], beforeExit: @escaping @Sendable () -> Void = {},
        onFirst: @escaping @Sendable (Int32) -> Void
    ) {
        let queue = DispatchQueue(label: "fetch-history.signals")
        let state = self.state
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let isFirst = state.received.withLock { value in
                    defer { value = value ?? number }
                    return value == nil
                }
                if isFirst {
                    onFirst(number)
                } else {
                    beforeExit()
                    signal(number, SIG_DFL)
                    kill(getpid(), number)
                }
            }
            source.resume()
            return source
        }
    }

    /// The first signal received, if any.
    var receivedSignal: Int32? { state.received.withLock { $0 } }

    /// SIGTERM: the program is told to stop (a shutdown, `kill`, a CI time
    /// limit), where SIGINT is a person at the terminal.
    static let terminate = SIGTERM
}

/// The first signal received, shared with the dispatch handlers.
private final class SignalState: Sendable {
    let received = Mutex<Int32?>(nil)
}
