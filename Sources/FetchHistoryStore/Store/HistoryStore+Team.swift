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
    /// Sends `destination` every fetch of this file it lacks that has ended
    /// (one left running by a recorder that is gone goes as interrupted),
    /// with their sessions, in batches of its `pushBatchSize`: each batch
    /// is taken there, then remembered here under the destination's
    /// `pushKey` (`Migrations/0009_push_marks.sql`). A push cut off anywhere
    /// is simply run again: the next starts from the last batch remembered,
    /// so every fetch is sent once (a team history also skips what it has).
    ///
    /// ```swift
    /// let summary = try await store.push(to: team)
    /// print("\(summary.new) new, \(summary.alreadyThere) already there")
    /// ```
    public func push(to destination: some PushDestination, batchSize: Int? = nil) async throws -> TransferSummary {
        let key = destination.pushKey
        let batchSize = batchSize ?? destination.pushBatchSize
        var summary = TransferSummary(sent: 0, new: 0)
        let mark = try await read { db in try db.pushMark(of: key) }
        var cursor = mark
        while true {
            let from = cursor
            let batch = try await read { db in try db.fetchesToPush(after: from, limit: batchSize) }
            if batch.fetches.isEmpty {
                summary.stillRunning = try await read { db in try db.runningCount(above: mark) }
                return summary
            }
            summary.new += try await destination.add(batch.fetches, sessions: batch.sessions)
            summary.sent += batch.fetches.count
            cursor = batch.lastSeq
            // Below the first fetch still running: it is pushed once it ends.
            let reached = batch.firstRunning.map { min(batch.lastSeq, $0 - 1) } ?? batch.lastSeq
            try await write { db in try db.raisePushMark(of: key, to: reached) }
        }
    }

    /// Brings the fetches of `team` that match `filter` into this file, in
    /// one transaction (all or nothing; the file's own fetches are kept,
    /// and ones it has are skipped). When this file had pushed everything
    /// to `team` (a new file has), it remembers that the pulled fetches need
    /// no pushing back: a push right after a pull sends nothing. `read` is
    /// called for each fetch read from the server.
    public func pull(
        from team: some TeamHistory, matching filter: HistoryFilter, read: @escaping @Sendable () -> Void = {}
    ) async throws -> TransferSummary {
        let pushKey = team.pushKey
        return try await Self.transfer(from: team, matching: filter, read: read) { handoff in
            try await self.write { db in try db.importPulled(from: handoff, pushKey: pushKey) }
        }
    }

    /// Like `pull(from:matching:)`, into a history built anew at `path`
    /// (`buildingNew(at:_:)`) when there is none there or it holds nothing;
    /// nil, pulling nothing, otherwise. The build runs on a thread of its own.
    public static func pullingNew(
        at path: String, from team: some TeamHistory, matching filter: HistoryFilter, read: @escaping @Sendable () -> Void = {}
    ) async throws -> TransferSummary? {
        guard mayBeReplaced(path) else { return nil }
        let pushKey = team.pushKey
        return try await transfer(from: team, matching: filter, read: read) { handoff in
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue(label: "fetch-history.build").async {
                    continuation.resume(with: Result {
                        let built = try buildingNew(at: path) { db in try db.importPulled(from: handoff, pushKey: pushKey) }
                        guard let built else {
                            // Written meanwhile: the server's reader stops at its next fetch.
                            handoff.stop(throwing: HistoryError.replacedWhileBuilding(path: path))
                            throw HistoryError.replacedWhileBuilding(path: path)
                        }
                        return built
                    })
                }
            }
        }
    }

    /// Reads the fetches of `team` that match `filter` into `importing`,
    /// which adds them from the hand-off: the server's rows cross a batch
    /// at a time, at most a few ahead, the reader waiting while the file
    /// catches up. `read` is called for each fetch read.
    private static func transfer(
        from team: some TeamHistory, matching filter: HistoryFilter, read: @escaping @Sendable () -> Void,
        importing: @escaping @Sendable (BatchHandoff<Fetch>) async throws -> ImportSummary
    ) async throws -> TransferSummary {
        let handoff = BatchHandoff<Fetch>(batchSize: 1_000, batchesAhead: 4)
        async let imported = importing(handoff)
        do {
            try await team.forEachFetch(matching: filter) { fetch in
                read()
                try handoff.put(fetch)
            }
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
    /// Adds the fetches `handoff` hands over, inside the caller's write
    /// transaction. When this file had pushed everything to the team
    /// history whose push key is `pushKey` (a new file has), it remembers that the pulled
    /// fetches need no pushing back: a push right after a pull sends nothing.
    fileprivate func importPulled(from handoff: BatchHandoff<Fetch>, pushKey: String) throws -> ImportSummary {
        let largestBefore = try largestSeq()
        let markBefore = try pushMark(of: pushKey)
        let summary: ImportSummary
        do {
            summary = try importFetches { insert in
                while let batch = try handoff.next() {
                    for fetch in batch { try insert(fetch) }
                }
            }
        } catch {
            // The reader stops at its next fetch instead of waiting for room.
            handoff.stop(throwing: error)
            throw error
        }
        if markBefore >= largestBefore { try raisePushMark(of: pushKey, to: try largestSeq()) }
        return summary
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
