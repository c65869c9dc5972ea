import FetchHistoryTesting
import Foundation
import Testing
@testable import FetchHistoryModel

/// `BatchHandoff`'s promises beyond what `ReadAheadTests` checks through
/// `ReadAhead`: the order of a failure, a consumer's own reason to stop,
/// and the consumer on Swift's pool (`next() async`). The producer runs on a
/// thread of its own (`runOnDedicatedThread`): its waits block.
@Suite(.timeLimit(.minutes(1))) struct BatchHandoffTests {
    struct Broken: Error, Equatable {}

    @Test func everyBatchComesInOrderThenTheProducersFailure() async throws {
        // Given a producer that hands over 7 elements in batches of 3, then fails
        let handoff = BatchHandoff<Int>(batchSize: 3, batchesAhead: 1)
        async let produced: Void = runOnDedicatedThread {
            for number in 1...7 { try? handoff.put(number) }
            handoff.finish(throwing: Broken())
        }

        // When the consumer takes everything, on Swift's pool
        var taken: [[Int]] = []
        var failure: (any Error)?
        do {
            while let batch = try await handoff.next() { taken.append(batch) }
        } catch {
            failure = error
        }
        await produced

        // Then it got the batches in order, the last one short, and the failure after them
        #expect(taken == [[1, 2, 3], [4, 5, 6], [7]])
        #expect(failure as? Broken == Broken())
    }

    @Test func aBatchPutWholeComesAfterTheElementsPutBeforeIt() async throws {
        // Given a producer that puts 2 elements one by one (batches of 3), then a batch of 4, then 1 more
        let handoff = BatchHandoff<Int>(batchSize: 3, batchesAhead: 4)
        async let produced: Void = runOnDedicatedThread {
            try? handoff.put(1)
            try? handoff.put(2)
            try? handoff.put(batch: [3, 4, 5, 6])
            try? handoff.put(batch: [])
            try? handoff.put(7)
            handoff.finish()
        }

        // When the consumer takes everything
        var taken: [[Int]] = []
        while let batch = try await handoff.next() { taken.append(batch) }
        await produced

        // Then the short batch went first, the whole batch as it was, no empty one, in order
        #expect(taken == [[1, 2], [3, 4, 5, 6], [7]])
    }

    @Test func aConsumerThatStopsMakesTheWaitingProducerThrowItsReason() async throws {
        // Given a hand-off with room for one batch of one, taken by the first element
        let handoff = BatchHandoff<Int>(batchSize: 1, batchesAhead: 1)
        try await runOnDedicatedThread { try handoff.put(1) }

        // When a producer puts a second (waiting for room, or about to) and the consumer stops with its own reason
        async let second: Result<Void, any Error> = runOnDedicatedThread { Result { try handoff.put(2) } }
        handoff.stop(throwing: Broken())

        // Then that put throws the consumer's reason, whether it was waiting or came after, and so does the next
        let result = await second
        #expect(throws: Broken.self) { try result.get() }
        #expect(throws: Broken.self) { try handoff.put(3) }
    }
}
