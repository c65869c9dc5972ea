import FetchHistoryTesting
import Foundation
import Synchronization
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// `ReadAhead`'s promises, with a reader whose records cost nothing, so it
/// always runs as far ahead as it may. Its waits block a thread, so each
/// test's work runs on one of its own (`runOnDedicatedThread`), bounded by
/// `withTimeout`: a deadlock fails the test instead of stopping the run.
/// The tests wait only for what they can observe: the records handed over.
@Suite(.timeLimit(.minutes(3))) struct ReadAheadTests {
    static let batch = ReadAhead<[ParsedRecord]>.batchSize
    static let depth = ReadAhead<[ParsedRecord]>.depth

    /// Hands over records numbered from 1, counting them as it goes.
    final class Reader: Sendable {
        /// Records handed to `put`, counting the one `put` may be waiting with.
        let produced = Atomic(0)
        let returned = Atomic(false)
        private static let fetch = Fetch(
            id: UUID(), sessionID: UUID(), source: "random", startedAt: Timestamp(millisecondsSince1970: 0)
        )

        /// Reads `count` records, or until `put` refuses one.
        func read(_ count: Int?, put: (ParsedRecord) throws -> Void) throws {
            defer { returned.store(true, ordering: .releasing) }
            var number = 0
            while count.map({ number < $0 }) ?? true {
                number += 1
                produced.add(1, ordering: .releasing)
                try put(ParsedRecord(fetch: Self.fetch, number: number, line: number, column: 1))
            }
        }

        var producedCount: Int { produced.load(ordering: .acquiring) }

        /// Spins until `count` records have been handed over.
        func waitUntilProduced(_ count: Int) {
            while producedCount < count {}
        }
    }

    @Test func theReaderStaysAtMostItsDepthOfBatchesAhead() async throws {
        // Given a reader of 40 batches' worth of records
        let total = 40 * Self.batch
        let reader = Reader()

        // When the caller takes each batch only once the reader has gone as
        // far ahead as it may
        let (numbers, largestLead) = try await withTimeout { try await runOnDedicatedThread {
            let readAhead = ReadAhead { put in try reader.read(total, put: put) }
            defer { readAhead.stop() }
            var numbers: [Int] = []
            var largestLead = 0
            while true {
                let taken = numbers.count
                reader.waitUntilProduced(min(total, taken + Self.depth * Self.batch))
                largestLead = max(largestLead, reader.producedCount - taken)
                guard let batch = try readAhead.next() else { break }
                numbers += batch.map(\.number)
            }
            return (numbers, largestLead)
        } }

        // Then every record came, in order, and the reader was never more
        // than its queue and the batch it was handing over ahead
        #expect(numbers == Array(1...total))
        #expect(largestLead <= (Self.depth + 1) * Self.batch, "\(largestLead) records ahead")
    }

    @Test func stopReturnsOnceTheReaderHasReturnedEvenWithItsQueueFull() async throws {
        // Given a reader that never ends, one batch taken, and the reader
        // waiting with a full batch because its queue is full
        let reader = Reader()
        let returned = try await withTimeout { await runOnDedicatedThread {
            let readAhead = ReadAhead { put in try reader.read(nil, put: put) }
            _ = try? readAhead.next()
            reader.waitUntilProduced((1 + Self.depth + 1) * Self.batch)

            // When the caller stops
            readAhead.stop()
            return reader.returned.load(ordering: .acquiring)
        } }

        // Then the reader had returned by the time `stop` did
        #expect(returned)
    }
}
