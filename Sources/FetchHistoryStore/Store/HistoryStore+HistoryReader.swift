import FetchHistoryModel
import FoundationEssentials

// The SQLite store behind the commands' seam, written once over two ways of
// reaching the connection: `HistoryStore` itself answers on its queue, so no
// call blocks the caller (an app's main actor); `HistoryStore.OnCallersThread`
// answers on the calling thread, which waits, so nothing suspends and no
// thread is started (a command-line tool on a local file).

/// How the seam's calls reach a store's connection.
protocol DatabaseAccess: HistoryWriter {
    var store: HistoryStore { get }
    /// Runs `body` in one read transaction.
    nonisolated(nonsending) func reading<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
    /// Runs `body` in one write transaction.
    nonisolated(nonsending) func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
    /// Runs `body` outside any transaction (a `VACUUM`).
    nonisolated(nonsending) func outsideTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseAccess {
    public nonisolated(nonsending) func fetches(matching filter: HistoryFilter, order: FetchOrder, limit: Int?) async throws -> [Fetch] {
        try await reading { db in try db.fetches(matching: filter, order: order, limit: limit) }
    }

    public nonisolated(nonsending) func listing(matching filter: HistoryFilter, limit: Int?) async throws -> HistoryListing {
        try await reading { db in HistoryListing(fetches: try db.fetches(matching: filter, limit: limit), cursor: try db.cursor()) }
    }

    public nonisolated(nonsending) func fetchesEnded(
        after cursor: inout HistoryCursor, matching filter: HistoryFilter
    ) async throws -> [Fetch] {
        let from = cursor
        let (ended, next) = try await reading { db in
            var moved = from
            return (try db.fetchesEnded(after: &moved, matching: filter), moved)
        }
        cursor = next
        return ended
    }

    public nonisolated(nonsending) func forEachFetch(
        matching filter: HistoryFilter, _ body: @escaping @Sendable (Fetch) throws -> Void
    ) async throws {
        try await reading { db in try db.forEachFetch(matching: filter, body) }
    }

    public nonisolated(nonsending) func fetches(shortIDEndingWith end: String, limit: Int) async throws -> [Fetch] {
        try await reading { db in try db.fetches(shortIDEndingWith: end, limit: limit) }
    }

    public nonisolated(nonsending) func sessions(shortIDEndingWith end: String, limit: Int) async throws -> [Session] {
        try await reading { db in try db.sessions(shortIDEndingWith: end, limit: limit) }
    }

    public nonisolated(nonsending) func fetch(idPrefix prefix: String) async throws -> Fetch {
        try await reading { db in try db.fetch(idPrefix: prefix) }
    }

    public nonisolated(nonsending) func session(idPrefix prefix: String) async throws -> Session {
        try await reading { db in try db.session(idPrefix: prefix) }
    }

    public nonisolated(nonsending) func session(id: UUID) async throws -> Session? {
        try await reading { db in try db.session(id: id) }
    }

    public nonisolated(nonsending) func sessionSummaries(matching filter: SessionFilter, limit: Int?) async throws -> [SessionSummary] {
        try await reading { db in try db.sessionSummaries(matching: filter, limit: limit) }
    }

    public nonisolated(nonsending) func statistics(
        matching filter: HistoryFilter, by groupings: [StatisticsGrouping]
    ) async throws -> (overall: HistoryStatistics, groups: [StatisticsGroup]) {
        try await reading { db in (try db.statistics(matching: filter), try db.statistics(matching: filter, by: groupings)) }
    }

    public nonisolated(nonsending) func fetchesToDelete(_ rule: RetentionRule) async throws -> RetentionSummary {
        try await reading { db in try db.fetchesToDelete(rule) }
    }

    public nonisolated(nonsending) func importFetches(
        _ produce: @escaping @Sendable (_ insert: (Fetch) throws -> Void) throws -> Void
    ) async throws -> ImportSummary {
        try await writing { db in try db.importFetches(produce) }
    }

    public nonisolated(nonsending) func deleteFetches(_ rule: RetentionRule) async throws -> RetentionSummary {
        try await writing { db in try db.deleteFetches(rule) }
    }

    public nonisolated(nonsending) func reclaimSpace() async throws -> ReclaimedSpace? {
        let before = try await reading { db in try db.space() }
        let threshold = HistoryStore.vacuumFreeFraction
        let rewritten: Bool
        do {
            rewritten = try await outsideTransaction { db in try db.reclaimSpace(minimumFreeFraction: threshold) }
        } catch HistoryError.locked {
            return ReclaimedSpace(before: before, after: before, outcome: .locked)
        }
        let after = try await reading { db in try db.space() }
        return ReclaimedSpace(before: before, after: after, outcome: rewritten ? .rewritten : .belowThreshold(minimumFreeFraction: threshold))
    }
}

extension HistoryStore: DatabaseAccess {
    var store: HistoryStore { self }

    nonisolated(nonsending) func reading<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await read(body)
    }

    nonisolated(nonsending) func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await write(body)
    }

    nonisolated(nonsending) func outsideTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async(path: path, body)
    }
}

extension HistoryStore {
    /// The store behind the commands' seam, answering each call on the
    /// calling thread, which waits for SQLite: nothing suspends, so a
    /// command-line tool reading a local file starts no thread. Never use it
    /// on an app's main actor: `HistoryStore`'s own calls do not block.
    ///
    /// ```swift
    /// let history: any HistoryReader = try HistoryStore.openForReading(path: path).onCallersThread
    /// ```
    public var onCallersThread: OnCallersThread { OnCallersThread(self) }

    /// `HistoryStore.onCallersThread`: the seam answered on the calling thread.
    public struct OnCallersThread: DatabaseAccess {
        public let store: HistoryStore
        /// Run inside each write, after its changes and before its commit.
        private let beforeCommit: (@Sendable () throws -> Void)?

        /// `beforeCommit` runs inside each write, after its changes and
        /// before its commit: what lets a test stop a command exactly there
        /// (CONTRIBUTING.md, "Development").
        package init(_ store: HistoryStore, beforeCommit: (@Sendable () throws -> Void)? = nil) {
            self.store = store
            self.beforeCommit = beforeCommit
        }

        nonisolated(nonsending) func reading<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
            try store.connection.sync(path: store.path) { db in try db.readTransaction { try body(db) } }
        }

        nonisolated(nonsending) func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
            try store.connection.sync(path: store.path) { db in
                try db.writeTransaction {
                    let result = try body(db)
                    try beforeCommit?()
                    return result
                }
            }
        }

        nonisolated(nonsending) func outsideTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
            try store.connection.sync(path: store.path, body)
        }
    }
}
