import Dispatch
@testable import FetchHistoryTesting
import Foundation
import Testing

/// Bounded by a time limit too: a broken stub or timeout must fail these
/// tests, not hang them.
@Suite(.timeLimit(.minutes(3))) struct ContinuationStubTests {
    struct Boom: Error, Equatable {}

    @Test func twoPendingCallsAreAnsweredByNumber() async throws {
        // Given two calls waiting
        let stub = ContinuationStub<String, Int>()
        let first = Task { try await stub.call("a") }
        try await stub.waitUntilCalled()
        let second = Task { try await stub.call("b") }
        try await stub.waitUntilCalled(times: 2)
        #expect(await stub.pendingCount == 2)

        // When each is answered by its number, the older one last
        #expect(await stub.resume(call: 2, returning: 20))
        #expect(await stub.resume(call: 1, throwing: Boom()))

        // Then each caller gets its own answer, and nothing is left waiting
        #expect(try await withTimeout { try await second.value } == 20)
        await #expect(throws: Boom.self) { try await withTimeout { try await first.value } }
        #expect(await stub.pendingCount == 0)
        #expect(await stub.callCount == 2)
        #expect(await stub.arguments == ["a", "b"])
    }

    @Test func aCallIsAnsweredAtMostOnceAndOnlyIfMade() async throws {
        let stub = ContinuationStub<Void, Int>()
        let call = Task { try await stub.call() }
        try await stub.waitUntilCalled()

        #expect(await stub.resume(call: 1, returning: 1))
        #expect(try await withTimeout { try await call.value } == 1)

        #expect(await !stub.resume(call: 1, returning: 2), "already answered")
        #expect(await !stub.resume(call: 2, returning: 2), "never made")
        #expect(await !stub.resume(call: 0, returning: 2), "never made")
        #expect(await !stub.resume(returning: 2), "nothing waiting")
        #expect(await !stub.resume(throwing: Boom()), "nothing waiting")
    }

    @Test func resumeAnswersTheNewestCallStillWaiting() async throws {
        // Given two calls waiting
        let stub = ContinuationStub<Int, String>()
        let older = Task { try await stub.call(1) }
        try await stub.waitUntilCalled()
        let newer = Task { try await stub.call(2) }
        try await stub.waitUntilCalled(times: 2)

        // When the test answers without a number
        #expect(await stub.resume(returning: "newest"))

        // Then the newer call got it and the older still waits
        #expect(try await withTimeout { try await newer.value } == "newest")
        #expect(await stub.pendingCount == 1)

        // And once the newer is answered, the older is the newest waiting
        #expect(await stub.resume(throwing: Boom()))
        await #expect(throws: Boom.self) { try await withTimeout { try await older.value } }
    }

    @Test func aCancelledCallEndsAtOnceButStaysCounted() async throws {
        // Given a call waiting, on a stub that honours cancellation
        let stub = ContinuationStub<String, Int>()
        let call = Task { try await stub.call("x") }
        try await stub.waitUntilCalled()

        // When its task is cancelled
        call.cancel()

        // Then it is no longer pending, at once, and ends with CancellationError
        #expect(await stub.pendingCount == 0)
        await #expect(throws: CancellationError.self) { try await withTimeout { try await call.value } }
        #expect(await !stub.resume(call: 1, returning: 1), "a cancelled call cannot be answered")
        // but it was made
        #expect(await stub.callCount == 1)
        #expect(await stub.arguments == ["x"])
    }

    @Test func aCallFromACancelledTaskEndsAtOnce() async throws {
        let stub = ContinuationStub<Void, Int>()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await stub.call()
        }

        await #expect(throws: CancellationError.self) { try await withTimeout { try await call.value } }
        #expect(await stub.callCount == 1)
        #expect(await stub.pendingCount == 0)
    }

    @Test func withoutHonouringCancellationACancelledCallWaitsForTheTestsAnswer() async throws {
        // Given a call waiting, on a stub that ignores cancellation
        let stub = ContinuationStub<Void, Int>(honoursCancellation: false)
        let call = Task { try await stub.call() }
        try await stub.waitUntilCalled()

        // When its task is cancelled
        call.cancel()

        // Then it still waits, and its caller gets the late answer
        #expect(await stub.pendingCount == 1)
        #expect(await stub.resume(returning: 7))
        #expect(try await withTimeout { try await call.value } == 7)
    }

    @Test func waitUntilCalledTimesOutAtItsLimit() async throws {
        let stub = ContinuationStub<Void, Int>()
        let started = ContinuousClock.now

        await #expect(throws: TimeoutError.self) { try await stub.waitUntilCalled(limit: .milliseconds(50)) }

        #expect(ContinuousClock.now - started >= .milliseconds(50))
    }

    @Test func waitingForCallsInACancelledTaskEndsAtOnce() async throws {
        let stub = ContinuationStub<Void, Int>()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await stub.waitUntilCalled(limit: .seconds(60))
        }
        await #expect(throws: CancellationError.self) { try await withTimeout { try await waiting.value } }
    }

    @Test func aCallNumberedButNotYetWaitingDoesNotCountForWaitUntilCalled() async throws {
        // Given a call caught between being numbered and storing its
        // continuation (the moment the race below can only rarely hit)
        let book = CallBook<Int, Int>(honoursCancellation: true)
        #expect(book.number(7) == 1)

        // When a test waits for one call
        // Then it is still waiting when its bound runs out: the call cannot be resumed yet, so it is not counted
        await #expect(throws: TimeoutError.self) {
            try await withTimeout(.milliseconds(200)) { try await book.waitForCalls(1) }
        }
        #expect(book.snapshot.arguments == [7] && book.snapshot.pending == 0)
    }

    @Test func onceWaitUntilCalledReturnsTheCallCanBeResumed() async throws {
        // Over many rounds: a call made on another thread is resumable the
        // moment waitUntilCalled lets the test go.
        for round in 1...500 {
            let stub = ContinuationStub<Int, Int>()
            let call = Task.detached { try await stub.call(round) }
            try await stub.waitUntilCalled()
            #expect(await stub.resume(returning: round), "round \(round)")
            #expect(try await withTimeout { try await call.value } == round)
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct YieldingStubTests {
    @Test func answersWhatItWasGiven() async throws {
        let stub = YieldingStub<String, Int>(returning: 3)
        #expect(try await stub.call("a") == 3)
        #expect(try await stub.call("b") == 3)
        #expect(await stub.callCount == 2)
        #expect(await stub.arguments == ["a", "b"])
    }

    @Test func failsWithWhatItWasGiven() async throws {
        struct Down: Error {}
        let stub = YieldingStub<Void, Int>(throwing: Down())
        await #expect(throws: Down.self) { try await stub.call() }
    }

    @Test func aCallCancelledMeanwhileThrowsCancellation() async throws {
        let stub = YieldingStub<Void, Int>(returning: 1)
        let call = Task { try await stub.call() }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await withTimeout { try await call.value } }
    }
}

@Suite(.timeLimit(.minutes(3))) struct WithTimeoutTests {
    @Test func returnsTheOperationsResultWhenItIsFirst() async throws {
        #expect(try await withTimeout { 42 } == 42)
    }

    @Test func firesAtItsLimitEvenIfTheOperationIgnoresCancellation() async throws {
        // Given an operation that never ends, and ignores cancellation
        let stub = ContinuationStub<Void, Int>(honoursCancellation: false)
        let started = ContinuousClock.now

        // When it is bounded
        await #expect(throws: TimeoutError(limit: .milliseconds(50))) {
            try await withTimeout(.milliseconds(50)) { try await stub.call() }
        }

        // Then the limit ended it, after the limit and not much later
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        #expect(await stub.resume(returning: 0), "the operation was left waiting")
    }

    @Test func theOperationIsCancelledBeforeTheCallerResumes() async throws {
        let stub = ContinuationStub<Void, Int>()
        await #expect(throws: TimeoutError.self) {
            try await withTimeout(.milliseconds(20)) { try await stub.call() }
        }
        #expect(await stub.callCount == 1)
        #expect(await stub.pendingCount == 0)
    }

    /// docs/testing.md promises one bound, 30 s, for every wait that is given none: far
    /// above a step that works on a loaded machine (takes 30 s, on no thread).
    @MainActor @Test func everyWaitGivenNoLimitHasTheSameThirtySecondBound() async throws {
        // Given things that never come: an answer, a call, a sleeper, a state, a request
        let never = ContinuationStub<Void, Int>(), neverCalled = ContinuationStub<Void, Int>()
        let clock = ManualClock()
        let recorder = StateRecorder { 0 }
        _ = try await recorder.next()
        let server = URLProtocolStub { _ in throw URLError(.cancelled) }
        func limit(_ wait: @escaping @Sendable () async throws -> Void) async -> Duration? {
            do { try await wait(); return nil } catch let error as TimeoutError { return error.limit } catch { return nil }
        }

        // When each is awaited with no limit
        async let bounded = limit { _ = try await withTimeout { try await never.call() } }
        async let called = limit { try await neverCalled.waitUntilCalled() }
        async let sleeping = limit { try await clock.waitUntilSleeping() }
        async let state = limit { _ = try await recorder.next() }
        async let request = limit { _ = try await server.waitForRequest() }

        // Then each timed out at the default limit, which is 30 s
        #expect(TimeoutError.defaultLimit == .seconds(30))
        let limits = await [bounded, called, sleeping, state, request]
        #expect(limits == Array(repeating: TimeoutError.defaultLimit, count: 5))
        #expect(SessionReplay.stepLimit == TimeoutError.defaultLimit)
    }

    @Test func cancellingTheCallerCancelsTheOperation() async throws {
        let stub = ContinuationStub<Void, Int>()
        let bounded = Task { try await withTimeout(.seconds(60)) { try await stub.call() } }
        try await stub.waitUntilCalled()

        bounded.cancel()

        await #expect(throws: CancellationError.self) { try await withTimeout { try await bounded.value } }
        #expect(await stub.pendingCount == 0)
    }
}

@Suite(.timeLimit(.minutes(3))) struct DedicatedThreadTests {
    struct Refused: Error {}

    @Test func returnsWhatTheWorkReturnsOrThrows() async throws {
        #expect(await runOnDedicatedThread { 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await runOnDedicatedThread { () throws(Refused) -> Int in throw Refused() } }
    }

    @Test func blockingWorkLeavesTheCooperativePoolFree() async throws {
        // Given more blocked pieces of work than the pool has threads
        let release = DispatchSemaphore(value: 0)
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let blocked = (0..<count).map { index in
            Task { await runOnDedicatedThread { release.wait(); return index } }
        }

        // When the test, itself on the pool, goes on and releases them
        let stillRunning = await Task.detached { true }.value
        for _ in 0..<count { release.signal() }

        // Then it could: each piece held a thread of its own
        #expect(stillRunning)
        var finished: [Int] = []
        for task in blocked { finished.append(try await withTimeout { await task.value }) }
        #expect(finished == Array(0..<count))
    }
}
