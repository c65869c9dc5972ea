import Dispatch
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
/// The signals arrive as bytes on a `SignalPipe`, read on a queue of the
/// trap's own. `raise` would signal only that queue's thread, which blocks
/// them, so the second signal re-sends itself with `kill`. `beforeExit` runs
/// just before that, to tidy the terminal (a progress line), since nothing
/// else will run.
final class SignalTrap {
    private let source: (any DispatchSourceRead)?
    private let state = SignalState()

    init(
        signals: [Int32] = [SIGINT, SIGTERM], beforeExit: @escaping @Sendable () -> Void = {},
        onFirst: @escaping @Sendable (Int32) -> Void
    ) {
        // Without a pipe (out of descriptors), the signals keep their default: they end the process.
        guard let pipe = SignalPipe.open(for: signals) else {
            source = nil
            return
        }
        let state = self.state
        let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: DispatchQueue(label: "fetch-history.signals"))
        source.setEventHandler {
            var byte: UInt8 = 0
            while read(pipe, &byte, 1) == 1 {
                let number = Int32(byte)
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
        }
        source.resume()
        self.source = source
    }

    /// The first signal received, if any.
    var receivedSignal: Int32? { state.received.withLock { $0 } }

    /// SIGTERM: the program is told to stop (a shutdown, `kill`, a CI time
    /// limit), where SIGINT is a person at the terminal.
    static let terminate = SIGTERM
}

/// The first signal received, shared with the dispatch handler.
private final class SignalState: Sendable {
    let received = Mutex<Int32?>(nil)
}
