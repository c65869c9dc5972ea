import Dispatch
import FetchHistoryModel
import Synchronization

/// An import's records read and parsed on a thread of their own, while the
/// caller's thread inserts the ones read before: on a machine with two cores
/// parsing costs the import no time (it was a sixth of it, 3 s of 19 s for
/// 1,000,000 fetches), and the inserts set the pace alone.
///
/// Records cross in batches (one hand-over per `batchSize` records), at most
/// `depth` batches ahead, so memory stays flat. Everything reaches the caller
/// in input order, a reading error after the records before it, exactly as
/// if one thread did both. When the caller stops early (an insert failed),
/// the reader stops at its next batch, and `stop()` returns once it has: the
/// input is never read after `FetchRecordReader.forEach` returns.
final class ReadAhead: Sendable {
    static let batchSize = 256
    static let depth = 16

    /// The caller stopped: the reader's signal to give up.
    struct Stopped: Error {}

    private struct State {
        var batches: [[ParsedRecord]] = []
        /// How reading ended, once it has: nil for the end of the input.
        var end: Result<Void, any Error>?
        var stopped = false
    }

    private let state = Mutex(State())
    /// A signal for each batch put, and one for the end.
    private let ready = DispatchSemaphore(value: 0)
    /// A signal for each batch that may still be put.
    private let room = DispatchSemaphore(value: 0)
    /// Signalled when the reader has returned.
    private let finished = DispatchSemaphore(value: 0)

    /// Runs `read` on a thread of its own; it hands over each record through
    /// the function it is given, which throws `Stopped` once the caller has
    /// stopped.
    init(_ read: sending @escaping (_ put: (ParsedRecord) throws -> Void) throws -> Void) {
        // Created at 0 and raised: libdispatch traps when a semaphore is
        // freed below the value it was created with, as `room` is when the
        // caller stops with batches unread.
        for _ in 0..<Self.depth { room.signal() }
        // Handed over whole: from here on only the reading thread touches it.
        nonisolated(unsafe) let read = read
        DispatchQueue(label: "fetch-history.read-ahead").async { [self] in
            var batch: [ParsedRecord] = []
            batch.reserveCapacity(Self.batchSize)
            let outcome = Result {
                try read { record in
                    batch.append(record)
                    if batch.count == Self.batchSize {
                        try put(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            }
            // The records read before the end, or before an error: all but
            // when the caller has stopped, and `put` then refuses them anyway.
            if !batch.isEmpty { try? put(batch) }
            state.withLock { $0.end = outcome }
            ready.signal()
            finished.signal()
        }
    }

    /// The next batch, in input order; nil at the end of the input; throws
    /// what reading threw, after every record read before it.
    func next() throws -> [ParsedRecord]? {
        ready.wait()
        let taken = state.withLock { state -> Result<[ParsedRecord]?, any Error> in
            if !state.batches.isEmpty { return .success(state.batches.removeFirst()) }
            return state.end!.map { nil }
        }
        if case .success(_?) = taken { room.signal() }
        return try taken.get()
    }

    /// Tells the reader to stop, and returns once it has.
    func stop() {
        state.withLock { $0.stopped = true }
        room.signal()
        finished.wait()
    }

    /// Throws `Stopped` once the caller has stopped: without waiting for
    /// room when it already had (`stop` makes room for one waiting put only),
    /// and after the wait when it stopped meanwhile.
    private func put(_ batch: [ParsedRecord]) throws(Stopped) {
        if state.withLock({ $0.stopped }) { throw Stopped() }
        room.wait()
        try state.withLock { (state) throws(Stopped) in
            guard !state.stopped else { throw Stopped() }
            state.batches.append(batch)
        }
        ready.signal()
    }
}
