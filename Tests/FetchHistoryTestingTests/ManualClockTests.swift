import FetchHistoryTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct ManualClockTests {
    @Test func waitUntilSleepingReturnsOnceTheSleeperSleeps() async throws {
        let clock = ManualClock()
        let nap = Task { try await clock.sleep(until: .init(offset: .seconds(1))) }

        try await clock.waitUntilSleeping()

        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await withTimeout { try await nap.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitUntilSleepingTimesOutWhenNobodySleeps() async throws {
        let clock = ManualClock()
        await #expect(throws: TimeoutError(limit: .milliseconds(30))) {
            try await clock.waitUntilSleeping(limit: .milliseconds(30))
        }
    }

    @Test func waitingForSleepersInACancelledTaskEndsAtOnce() async throws {
        let clock = ManualClock()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.waitUntilSleeping(limit: .seconds(60))
        }
        await #expect(throws: CancellationError.self) { try await withTimeout { try await waiting.value } }
    }

    @Test func aSleeperWhoseDeadlineHasComeWakesAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))

        try await withTimeout { try await clock.sleep(until: .init(offset: .seconds(5))) }
        try await withTimeout { try await clock.sleep(until: .init(offset: .seconds(1))) }

        #expect(clock.now.offset == .seconds(5), "never moved back")
    }

    @Test func advancingWakesTheSleepersDueAndTheClockStaysThere() async throws {
        let clock = ManualClock()
        let woken = WakeLog()
        let naps = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(until: .init(offset: .seconds(seconds)))
                woken.append(clock.now.offset)
            }
        }
        try await clock.waitUntilSleeping(3)

        // Only the one due wakes, and reads the moment the test moved to
        clock.advance(by: .milliseconds(1_500))
        try await withTimeout { try await naps[1].value }
        #expect(woken.offsets == [.milliseconds(1_500)])
        #expect(clock.sleeperCount == 2)

        clock.advance(to: .seconds(10))
        for nap in naps { try await withTimeout { try await nap.value } }
        #expect(woken.offsets == [.milliseconds(1_500), .seconds(10), .seconds(10)])
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledSleeperStopsSleeping() async throws {
        let clock = ManualClock()
        let nap = Task { try await clock.sleep(until: .init(offset: .seconds(1))) }
        try await clock.waitUntilSleeping()

        nap.cancel()

        await #expect(throws: CancellationError.self) { try await withTimeout { try await nap.value } }
        #expect(clock.sleeperCount == 0)
    }

    @MainActor @Test func oneAdvancePastSeveralDeadlinesWakesTheirSleepersEarliestFirst() async throws {
        // Given sleepers until 2 s and 1 s, gone to sleep in that order
        let clock = ManualClock()
        var woken: [Int] = []
        let late = Task { @MainActor in
            try await clock.sleep(until: .init(offset: .seconds(2)))
            woken.append(2)
        }
        try await clock.waitUntilSleeping(1)
        let early = Task { @MainActor in
            try await clock.sleep(until: .init(offset: .seconds(1)))
            woken.append(1)
        }
        try await clock.waitUntilSleeping(2)

        // When one advance passes both deadlines
        clock.advance(to: .seconds(3))
        try await withTimeout { try await late.value }
        try await withTimeout { try await early.value }

        // Then the one due first woke first
        #expect(woken == [1, 2])
    }

    @Test func aSleeperCancelledWhileGoingToSleepStopsSleepingToo() async throws {
        // When sleepers are cancelled at once, many while between their
        // check for cancellation and their registration as sleepers
        let clock = ManualClock()
        let started = StartCount()
        // (Spinning on a thread of its own, so as not to hold one of the
        // pool's few threads that the sleepers and other tests need.)
        let naps = await runOnDedicatedThread {
            (0..<2_000).map { round in
                let nap = Task.detached {
                    started.increment()
                    try await clock.sleep(until: .init(offset: .seconds(1)))
                }
                // Cancel once the sleeper has begun, a varying moment later
                while started.value <= round {}
                for _ in 0..<(round % 50) { _ = started.value }
                nap.cancel()
                return nap
            }
        }

        // Then every one ends cancelled and none is left asleep, without
        // the clock moving: a sleeper registered after its cancellation
        // handler ran would sleep until the next advance
        var cancelled = 0
        for nap in naps {
            do { try await withTimeout { try await nap.value } } catch is CancellationError { cancelled += 1 }
        }
        #expect(cancelled == naps.count)
        #expect(clock.sleeperCount == 0)
    }
}

/// When each sleeper woke, as it saw the clock.
private final class WakeLog: Sendable {
    private let log = Mutex<[Duration]>([])
    var offsets: [Duration] { log.withLock { $0 } }
    func append(_ offset: Duration) { log.withLock { $0.append(offset) } }
}

/// How many sleepers have begun.
private final class StartCount: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .acquiring) }
    func increment() { count.add(1, ordering: .releasing) }
}

extension ManualClockTests {
    @Test func advancingToAnEarlierMomentLeavesTheClockWhereItIs() async throws {
        // Given a clock moved to 5 s
        let clock = ManualClock()
        clock.advance(to: .seconds(5))

        // When it is told to go to 2 s
        clock.advance(to: .seconds(2))

        // Then it is still at 5 s: a sleeper until 3 s is already due
        #expect(clock.now.offset == .seconds(5))
        try await withTimeout(.seconds(20)) { try await clock.sleep(until: .init(offset: .seconds(3))) }
        #expect(clock.sleeperCount == 0)
    }
}
