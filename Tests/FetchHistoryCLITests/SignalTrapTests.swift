@testable import FetchHistoryCLI
import Foundation
import Testing

@Suite("A signal trap misses no signal")
struct SignalTrapTests {
    @Test(.timeLimit(.minutes(1)))
    func aSignalSentTheMomentTheTrapIsSetReachesIt() async throws {
        // Given a trap for SIGUSR2 (nothing else in the test process uses it)
        let (received, delivery) = AsyncStream.makeStream(of: Int32.self)
        let trap = SignalTrap(signals: [SIGUSR2]) { delivery.yield($0) }
        defer { signal(SIGUSR2, SIG_DFL) }

        // When the signal is sent the moment it is set (a trap that ignored the signal until a
        // handler was registered elsewhere, later, dropped it: this wait then never ended)
        kill(getpid(), SIGUSR2)

        // Then the trap hears it, once, and remembers it as the first
        var signals = received.makeAsyncIterator()
        #expect(await signals.next() == SIGUSR2)
        #expect(trap.receivedSignal == SIGUSR2)
    }
}
