import Dispatch
import FetchHistoryModel
import FoundationEssentials
import Synchronization

/// What a `push` or a `pull` moved.
public struct TransferSummary: Hashable, Sendable {
    /// Fetches sent (push) or received (pull).
    public var sent: Int
    /// Of those, the ones the other side did not have.
    public var new: Int
    /// Fetches left out of a push because they are still running (they go once they end).
    public var stillRunning: Int
    /// Distinct sources a pull received with secrets, stored with them
    /// hidden (`ImportSummary.sourcesWithSecretsHidden`).
    public var sourcesWithSecretsHidden: Int

    public init(sent: Int, new: Int, stillRunning: Int = 0, sourcesWithSecretsHidden: Int = 0) {
        self.sent = sent
        self.new = new
        self.stillRunning = stillRunning
        self.sourcesWithSecretsHidden = sourcesWithSecretsHidden
    }

    /// Sent, but already there.
    public var alreadyThere: Int { sent - new }
}

extension HistoryStore {
    /// Fetches per push batch: one read here, one transaction there.
    public static let pushBatchSize = 10_000

    /// Sends `team` every fetch of this file it lacks that has ended (one
    /// left running by a recorder that is gone goes as interrupted), with
    /// their sessions, in batches: each batch is committed there, then
    /// remembered here (`Migrations/0009_push_marks.sql`). A push cut off
    /// anywhere is simply run again: the next starts from the last batch
    /// remembered, and the server skips what it has, so every fetch arrives
    /// exactly once.
    ///
    /// ```swift
    /// let summary = try await store.push(to: team)
    /// print("\(summary.new) new, \(summary.alreadyThere) already there")
    /// ```
    public func push(to team: some TeamHistory, batchSize: Int = pushBatchSize) async throws -> TransferSummary {
        let historyID = team.historyID
        var summary = TransferSummary(sent: 0, new: 0)
        let mark = try await read { db in try db.pushMark(of: historyID) }
        var cursor = mark
        while true {
            let from = cursor
            let batch = try await read { db in try db.fetchesToPush(after: from, limit: batchSize) }
            if batch.fetches.isEmpty {
                summary.stillRunning = try await read { db in try db.runningCount(above: mark) }
                return summary
            }
            summary.new += try await team.add(batch.fetches, sessions: batch.sessions)
            summary.sent += batch.fetches.count
            cursor = batch.lastSeq
            // Below the first fetch still running: it is pushed once it ends.
            let reached = batch.firstRunning.map { min(batch.lastSeq, $0 - 1) } ?? batch.lastSeq
            try await write { db in try db.raisePushMark(of: historyID, to: reached) }
        }
    }

    /// Brings the fetches of `team` that match `filter` into this file, in
    /// one transaction (all or nothing; the file's own fetches are kept,
    /// and ones it has are skipped). When this file had pushed everything
    /// to `team` (a new file has), it remembers that the pulled fetches need
    /// no pushing back: a push right after a pull sends nothing.
    public func pull(from team: some TeamHistory, matching filter: HistoryFilter) async throws -> TransferSummary {
        let handoff = FetchHandoff()
        let historyID = team.historyID
        async let imported: ImportSummary = write { db in
            let largestBefore = try db.largestSeq()
            let markBefore = try db.pushMark(of: historyID)
            let summary: ImportSummary
            do {
                summary = try db.importFetches { insert in
                    while let batch = try handoff.take() {
                        for fetch in batch { try insert(fetch) }
                    }
                }
            } catch {
                // The reader stops at its next fetch instead of waiting for room.
                handoff.finish(throwing: error)
                throw error
            }
            if markBefore >= largestBefore { try db.raisePushMark(of: historyID, to: try db.largestSeq()) }
            return summary
        }
        do {
            try await team.forEachFetch(matching: filter) { fetch in try handoff.put(fetch) }
            handoff.finish()
        } catch {
            handoff.finish(throwing: error)
            _ = try? await imported
            throw error
        }
        let summary = try await imported
        return TransferSummary(
            sent: summary.added + summary.skipped, new: summary.added, sourcesWithSecretsHidden: summary.sourcesWithSecretsHidden
        )
    }
}

extension Database {
    /// How many fetches above `seq` are still running in a live process.
    func runningCount(above seq: Int64) throws -> Int {
        Int(try scalarInt64(HistorySQL.runningAbove, [.integer(seq)]))
    }
}

extension HistorySQL {
    static let runningAbove = "SELECT count(*) FROM fetch WHERE seq > ? AND outcome IS NULL AND \(isAlive) = 1"
}

/// Fetches crossing from a reader (a server's rows, as they arrive) to the
/// store's queue (an import), a batch at a time, at most a few batches
/// ahead: the reader waits while the file catches up, so memory stays flat.
final class FetchHandoff: Sendable {
    private static let batchSize = 1_000
    private static let batchesAhead = 4

    private struct State {
        var filling: [Fetch] = []
        var ready: [[Fetch]] = []
        var finished = false
        var failure: (any Error)?
        var taken = false
    }

    private let state = Mutex(State())
    /// Signalled for each batch ready, and once at the end.
    private let available = DispatchSemaphore(value: 0)
    /// Signalled for each batch taken.
    private let room = DispatchSemaphore(value: FetchHandoff.batchesAhead)

    /// Hands `fetch` over; waits while the store is a few batches behind.
    func put(_ fetch: Fetch) throws {
        let full = try state.withLock { state throws -> [Fetch]? in
            if let failure = state.failure { throw failure }
            state.filling.append(fetch)
            guard state.filling.count == Self.batchSize else { return nil }
            defer { state.filling.removeAll(keepingCapacity: true) }
            return state.filling
        }
        guard let full else { return }
        room.wait()
        try state.withLock { state throws in
            if let failure = state.failure { throw failure }
            state.ready.append(full)
        }
        available.signal()
    }

    /// The reader is done: what is left goes, then `take` returns nil.
    func finish() {
        state.withLock { state in
            if !state.filling.isEmpty { state.ready.append(state.filling) }
            state.filling = []
            state.finished = true
        }
        available.signal()
    }

    /// One side failed: `take` throws `error`, and so do later `put`s,
    /// including one waiting for room.
    func finish(throwing error: any Error) {
        state.withLock { state in
            state.failure = error
            state.finished = true
        }
        available.signal()
        room.signal()
    }

    /// The next batch, waiting for it; nil once the reader is done.
    func take() throws -> [Fetch]? {
        while true {
            let next = try state.withLock { state throws -> [Fetch]?? in
                if let failure = state.failure { throw failure }
                if !state.ready.isEmpty { return state.ready.removeFirst() }
                return state.finished ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let batch)):
                room.signal()
                return batch
            case .some(.none):
                return nil
            case .none:
                available.wait()
            }
        }
    }
}
