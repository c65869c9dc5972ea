import Dispatch
import Synchronization

/// Elements crossing from a producer on one thread to a consumer on
/// another, a batch at a time, at most `batchesAhead` batches waiting: the
/// producer waits while the consumer catches up, so memory stays flat
/// however many cross. What an import hands its store (`ReadAhead`), a
/// pull its file, and an import a server.
///
/// Order is kept: every batch reaches the consumer in the order it was
/// made, and how the producer ended (`finish(throwing:)`) after the last of
/// them. A consumer that stops (`stop(throwing:)`) makes the producer's next
/// `put` throw, at once, even while it waits for room.
///
/// ```swift
/// let handoff = BatchHandoff<Fetch>(batchSize: 1_000, batchesAhead: 4)
/// // producer:
/// for fetch in fetches { try handoff.put(fetch) }
/// handoff.finish()
/// // consumer:
/// while let batch = try handoff.next() { try insert(batch) }
/// ```
package final class BatchHandoff<Element: Sendable>: Sendable {
    /// The consumer stopped: why the producer's `put` throws when the
    /// consumer gave no reason of its own.
    package struct Stopped: Error {
        package init() {}
    }

    private struct State {
        var filling: [Element] = []
        var ready: [[Element]] = []
        /// How the producer ended, once it has: nil for the end of the input.
        var end: Result<Void, any Error>?
        /// Why the consumer stopped, once it has.
        var stopped: (any Error)?
    }

    private let batchSize: Int
    private let state = Mutex(State())
    /// A signal for each batch ready, and one for the end.
    private let ready = DispatchSemaphore(value: 0)
    /// A signal for each batch that may still be handed over.
    private let room = DispatchSemaphore(value: 0)
    /// Where an async consumer waits (`next() async`).
    private let waiting = DispatchQueue(label: "fetch-history.handoff")

    package init(batchSize: Int, batchesAhead: Int) {
        self.batchSize = batchSize
        // Created at 0 and raised: libdispatch traps when a semaphore is
        // freed below the value it was created with, as `room` is when the
        // consumer stops with batches unread.
        for _ in 0..<batchesAhead { room.signal() }
    }

    // MARK: The producer's side

    /// Adds `element`; once a batch is full, hands it over, waiting while
    /// `batchesAhead` wait. Throws why the consumer stopped, once it has.
    package func put(_ element: Element) throws {
        let full = try state.withLock { state throws -> [Element]? in
            if let stopped = state.stopped { throw stopped }
            state.filling.append(element)
            guard state.filling.count == batchSize else { return nil }
            defer { state.filling.removeAll(keepingCapacity: true) }
            return state.filling
        }
        if let full { try handOver(full) }
    }

    /// Hands `batch` over as it is, after any elements `put` one by one
    /// before it, waiting while `batchesAhead` wait: for a producer that
    /// gathers its own batches, which then cost one lock each, not one per
    /// element. Throws why the consumer stopped, once it has.
    package func put(batch: [Element]) throws {
        let filling = state.withLock { state -> [Element] in
            defer { state.filling.removeAll(keepingCapacity: true) }
            return state.filling
        }
        if !filling.isEmpty { try handOver(filling) }
        if !batch.isEmpty { try handOver(batch) }
    }

    /// Ends the hand-off: what is left goes, then the consumer gets nil, or
    /// `error` after every batch before it.
    package func finish(throwing error: (any Error)? = nil) {
        let rest = state.withLock { state -> [Element] in
            defer { state.filling = [] }
            return state.filling
        }
        if !rest.isEmpty { try? handOver(rest) }
        state.withLock { $0.end = error.map { .failure($0) } ?? .success(()) }
        ready.signal()
    }

    /// Waits for room, unless the consumer stopped (`stop` makes room for
    /// one waiting producer).
    private func handOver(_ batch: [Element]) throws {
        if let stopped = state.withLock({ $0.stopped }) { throw stopped }
        room.wait()
        try state.withLock { state throws in
            if let stopped = state.stopped { throw stopped }
            state.ready.append(batch)
        }
        ready.signal()
    }

    // MARK: The consumer's side

    /// The next batch, waiting for it; nil at the end; throws how the
    /// producer failed, after every batch before it.
    package func next() throws -> [Element]? {
        ready.wait()
        let taken = state.withLock { state -> Result<[Element]?, any Error>? in
            if !state.ready.isEmpty { return .success(state.ready.removeFirst()) }
            // The end was signalled once: leave its signal for the next call too.
            return state.end.map { $0.map { nil } }
        }
        switch taken {
        case .success(let batch?)?:
            room.signal()
            return batch
        case let end?:
            ready.signal()
            return try end.get()
        case nil:
            // Unreachable: each signal is a batch or the end.
            return nil
        }
    }

    /// `next()`, waiting on a queue of its own rather than on the caller's
    /// thread: for a consumer on Swift's cooperative pool, whose few
    /// threads (one per core) must never wait on a semaphore. A serial
    /// queue of its own may be given a new thread when it blocks, where
    /// Dispatch's global queues, shared with everything, may not.
    package func next() async throws -> [Element]? {
        try await withCheckedThrowingContinuation { continuation in
            waiting.async { continuation.resume(with: Result { try self.next() }) }
        }
    }

    /// Stops taking: the producer's next `put` (or the one waiting for
    /// room) throws `error`.
    package func stop(throwing error: any Error = Stopped()) {
        state.withLock { state in
            if state.stopped == nil { state.stopped = error }
        }
        room.signal()
    }
}
