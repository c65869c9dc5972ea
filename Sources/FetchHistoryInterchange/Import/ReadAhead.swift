import Dispatch
import FetchHistoryModel

/// An import's records read and parsed on a thread of their own, while the
/// caller's thread inserts the ones read before: on a machine with two cores
/// parsing costs the import no time (it was a sixth of it, 3 s of 19 s for
/// 1,000,000 fetches), and the inserts set the pace alone.
///
/// Records cross in a `BatchHandoff`, `batchSize` at a time, each batch
/// first made into what the caller wants of it (`prepare`) on the reading
/// thread, at most `depth` batches ahead, so memory stays flat.
/// Everything reaches the caller in input order, a reading error after the
/// records before it, exactly as if one thread did both. When the caller
/// stops early (an insert failed), the reader stops at its next batch, and
/// `stop()` returns once it has: the input is never read after
/// `FetchRecordReader.forEach` returns.
final class ReadAhead<Prepared: Sendable>: Sendable {
    static var batchSize: Int { 256 }
    static var depth: Int { 16 }

    private let handoff = BatchHandoff<Prepared>(batchSize: 1, batchesAhead: depth)
    /// Signalled when the reader has returned.
    private let finished = DispatchSemaphore(value: 0)

    /// Runs `read` on a thread of its own; it hands over each record through
    /// the function it is given, which throws once the caller has stopped.
    /// Each batch is handed over as `prepare` makes it, on that thread.
    init(
        preparing prepare: @escaping @Sendable ([ParsedRecord]) -> Prepared,
        _ read: sending @escaping (_ put: (ParsedRecord) throws -> Void) throws -> Void
    ) {
        // Handed over whole: from here on only the reading thread touches it.
        nonisolated(unsafe) let read = read
        DispatchQueue(label: "fetch-history.read-ahead").async { [handoff, finished] in
            // Gathered here, where the element type is known, and handed
            // over a batch at a time: one lock per batch.
            var batch: [ParsedRecord] = []
            batch.reserveCapacity(Self.batchSize)
            do {
                try read { record in
                    batch.append(record)
                    guard batch.count == Self.batchSize else { return }
                    try handoff.put(batch: [prepare(batch)])
                    batch.removeAll(keepingCapacity: true)
                }
                if !batch.isEmpty { try handoff.put(batch: [prepare(batch)]) }
                handoff.finish()
            } catch {
                // The records read before a bad one reach the caller before
                // its error (a put fails again at once if the caller stopped).
                if !batch.isEmpty { try? handoff.put(batch: [prepare(batch)]) }
                handoff.finish(throwing: error)
            }
            finished.signal()
        }
    }

    /// The next batch, prepared, in input order; nil at the end of the
    /// input; throws what reading threw, after every record read before it.
    func next() throws -> Prepared? {
        try handoff.next()?.first
    }

    /// Tells the reader to stop, and returns once it has.
    func stop() {
        handoff.stop()
        finished.wait()
    }
}

extension ReadAhead where Prepared == [ParsedRecord] {
    /// Records handed over as they were read, a batch at a time.
    convenience init(_ read: sending @escaping (_ put: (ParsedRecord) throws -> Void) throws -> Void) {
        self.init(preparing: { $0 }, read)
    }
}
