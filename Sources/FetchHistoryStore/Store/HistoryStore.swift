import CSQLite
import Dispatch
import FetchHistoryModel
import FoundationEssentials

/// The history of fetches, in one SQLite database: the one owner of its
/// connection.
///
/// As with GRDB's `DatabaseQueue`, the connection lives on a serial queue of
/// its own and is reached only through `read` and `write`, whose closure gets
/// the `Database` with the history's operations (`fetches(matching:)`,
/// `recordStart(of:in:at:)`, `importFetches(_:)`, …). The `async` versions
/// never block the caller's thread: on the main actor, use those. The
/// synchronous ones run on the caller's thread while holding the queue, for
/// command-line tools and tests.
///
/// ```swift
/// let store = try HistoryStore(path: "history.sqlite", access: .create)
/// let failures = try await store.read { db in
///     try db.fetches(matching: HistoryFilter(status: .failed), limit: 20)
/// }
/// ```
///
/// Each `write` is one short `BEGIN IMMEDIATE` transaction, so several
/// processes can record into the same file; each `read` sees one snapshot.
/// Calls are not reentrant: calling the store from inside one of its own
/// closures throws `HistoryError.reentrantAccess` instead of deadlocking.
public final class HistoryStore: Sendable {
    /// The path the store was opened with, or `:memory:`.
    public let path: String
    let connection: Connection

    /// Opens (and, with `.readWrite` or `.create`, creates or upgrades) the
    /// database at `path`. A file that is not a SQLite database, belongs to
    /// another application or to a newer fetch-history is refused and left
    /// untouched. `.readOnly` never writes: a database of an older schema is
    /// refused with `OpenFailure.needsUpgrade`.
    public convenience init(path: String, access: Database.Access) throws(HistoryError) {
        try self.init(path: path, access: access, migrator: Migrator())
    }

    /// Opens the database at `path` with `migrator`'s schema steps rather
    /// than `Migrations/`' (tests of older schemas), waiting for other
    /// connections' locks as `lockWait` says.
    package init(
        path: String, access: Database.Access, migrator: Migrator, lockWait: Database.LockWait = .standard
    ) throws(HistoryError) {
        self.path = path
        let opening = Opening(path: path, access: access, migrator: migrator, lockWait: lockWait)
        connection = Connection(try opening.open(), opening: opening)
    }

    /// Opens an existing history to read it, upgrading it first if an older
    /// fetch-history wrote it and the file can be written: the first
    /// reader upgrades it for every later one. A read-only history of an
    /// older schema is left as it is and refused with
    /// `OpenFailure.needsUpgrade`, whose sentence says how to upgrade it; a
    /// missing file with `OpenFailure.missing`: reading never creates one.
    public static func openForReading(path: String) throws(HistoryError) -> HistoryStore {
        do {
            return try HistoryStore(path: path, access: .readOnly)
        } catch .cannotOpen(_, reason: .needsUpgrade) {
            do {
                return try HistoryStore(path: path, access: .readWrite)
            } catch .cannotOpen(_, reason: .readOnly) {
                return try HistoryStore(path: path, access: .readOnly)
            }
        }
    }

    /// How the store opens its connection, kept to open it again.
    ///
    /// A reader must leave nothing beside a history that its owner could
    /// not write (docs/commands.md, "Reading a history you do not own"). SQLite reads a
    /// WAL database through the `-wal` and `-shm` beside it, and makes them
    /// when they are missing; made by another user, they stop the owner's
    /// next write ("attempt to write a readonly database"), and in a folder
    /// the reader cannot write they cannot be made at all. So:
    /// - the owner, or root, opens the file as SQLite does;
    /// - another user opens it through the `-wal` and `-shm` when both are
    ///   there (a writer has it open): SQLite's read-only WAL support
    ///   (sqlite.org/wal.html#readonly), correct while the writer writes;
    /// - with neither there, no connection has the history open and every
    ///   commit is in the file itself: another user (or the owner, in a
    ///   folder it cannot write) reads the file alone, as `immutable=1`,
    ///   and opens it again at the next read once it has changed, or the
    ///   writer's files have appeared (`Connection`).
    struct Opening: Sendable {
        var path: String
        var access: Database.Access
        var migrator: Migrator
        var lockWait: Database.LockWait

        func open() throws(HistoryError) -> Database {
            guard access == .readOnly, path != HistoryStore.inMemoryPath else { return try connect(.throughSideFiles) }
            let sideFiles = DatabaseFile.sideFiles(of: path)
            let snapshot = Database.Reach.snapshot(of: DatabaseFile.signature(of: path))
            guard DatabaseFile.ownsSideFiles(of: path) else {
                return try connect(sideFiles.areBoth ? .throughOthersSideFiles(before: sideFiles) : snapshot)
            }
            do {
                return try connect(.throughSideFiles)
            } catch .cannotOpen(_, reason: .unreadable) where sideFiles.log == nil {
                // The owner's history in a folder it cannot write.
                return try connect(snapshot)
            }
        }

        private func connect(_ reach: Database.Reach) throws(HistoryError) -> Database {
            do {
                if path != HistoryStore.inMemoryPath { try DatabaseFile.check(path, for: access) }
                let database = try Database(path: path, access: access, reach: reach, lockWait: lockWait)
                if access == .readOnly {
                    try migrator.verify(database)
                } else {
                    // Refuses foreign and newer files before anything is written.
                    try migrator.migrate(database)
                    try database.useWriteAheadLog()
                }
                try database.registerProcessAliveFunction()
                try database.registerTextSearchFunction()
                try database.registerProblemFunction()
                return database
            } catch let failure as OpenFailure {
                throw .cannotOpen(path: path, reason: failure)
            } catch let error as MigrationError {
                throw .cannotOpen(path: path, reason: OpenFailure(error))
            } catch let error as SQLiteError where access == .readOnly && OpenFailure.isUnreadable(error) {
                throw .cannotOpen(path: path, reason: .unreadable(error))
            } catch let error as SQLiteError {
                throw .cannotOpen(path: path, reason: OpenFailure(error))
            } catch {
                // Nothing else is thrown above; kept for the compiler.
                throw .cannotOpen(path: path, reason: .sqlite(SQLiteError(code: SQLITE_ERROR, message: "\(error)")))
            }
        }
    }

    /// A new, empty history that lives in memory: for tests and previews.
    public static func inMemory() throws(HistoryError) -> HistoryStore {
        try HistoryStore(path: inMemoryPath, access: .create)
    }

    static let inMemoryPath = ":memory:"

    // MARK: - Access

    /// Runs `body` in a read transaction: every query in it sees the same
    /// snapshot of the history. Blocks the calling thread until done.
    ///
    /// - Throws: `HistoryError` (SQLite's failures, named), or what `body` threw.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.sync(path: path) { database in try database.readTransaction { try body(database) } }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`), committed when
    /// it returns and rolled back when it throws. Blocks the calling thread
    /// until done, including while another process holds the write lock.
    @discardableResult
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.sync(path: path) { database in try database.writeTransaction { try body(database) } }
    }

    /// Runs `body` in a read transaction on the store's queue, without
    /// blocking the caller.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async(path: path) { database in try database.readTransaction { try body(database) } }
    }

    /// Runs `body` in a write transaction on the store's queue, without
    /// blocking the caller. A write that has started is finished even if the
    /// calling task is cancelled meanwhile: recording a cancellation is a
    /// write made by a cancelled task.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async(path: path) { database in try database.writeTransaction { try body(database) } }
    }

    /// Gives the space of deleted fetches back to the file system by
    /// rewriting the file (`VACUUM`), when at least `minimumFreeFraction` of
    /// its pages are free; returns whether it did. Outside any transaction,
    /// as SQLite requires, and atomic like a write. Below the threshold the
    /// free pages stay, and new fetches reuse them before the file grows.
    @discardableResult
    public func reclaimSpace(minimumFreeFraction: Double = HistoryStore.vacuumFreeFraction) throws -> Bool {
        try connection.sync(path: path) { database in try database.reclaimSpace(minimumFreeFraction: minimumFreeFraction) }
    }

    /// A rewrite costs what the file keeps, so it is worth it once a good
    /// share is free: see docs/commands.md, "Reclaiming space", for the figures.
    public static let vacuumFreeFraction = 0.25
}

extension HistoryStore {
    /// The connection and the serial queue it lives on.
    ///
    /// Unchecked Sendable: `database` is only touched by closures running on
    /// `queue`, one at a time.
    final class Connection: @unchecked Sendable {
        private var database: Database
        private let opening: Opening
        private let queue = DispatchQueue(label: "fetch-history.store")
        /// Set on `queue`, to tell a reentrant call from a waiting one.
        private let key = DispatchSpecificKey<Bool>()

        init(_ database: Database, opening: Opening) {
            self.database = database
            self.opening = opening
            queue.setSpecific(key: key, value: true)
        }

        func sync<T>(path: String, _ body: (Database) throws -> T) throws -> T {
            // "Database methods are not reentrant" (GRDB): `queue.sync` from
            // the queue itself would deadlock, so it is refused with a name.
            guard DispatchQueue.getSpecific(key: key) == nil else { throw HistoryError.reentrantAccess(path: path) }
            return try Self.naming(path) { try queue.sync { try body(current()) } }
        }

        func async<T: Sendable>(path: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                // Weakly held, and let go before the caller resumes: the
                // caller keeps the store alive while it waits, and if its
                // release is the last, the connection closes (a WAL
                // checkpoint) in the caller, not on this queue while the
                // caller may already be exiting the process.
                queue.async { [weak self] in
                    let result: Result<T, any Error>
                    if let self {
                        result = Result { try Self.naming(path) { try body(self.current()) } }
                    } else {
                        result = .failure(HistoryError.sqlite(path: path, SQLiteError(code: SQLITE_MISUSE, message: "the store was closed")))
                    }
                    continuation.resume(with: result)
                }
            }
        }

        /// The connection, on `queue`. A snapshot is taken to never change:
        /// once the file has changed (a writer checkpointed into it) or a
        /// writer has it open (its `-wal` and `-shm` are there), it is
        /// opened again, through them if they are there.
        private func current() throws(HistoryError) -> Database {
            if case .snapshot(let signature) = database.reach,
               DatabaseFile.sideFiles(of: opening.path).areBoth || DatabaseFile.signature(of: opening.path) != signature {
                database = try opening.open()
            }
            return database
        }

        /// Runs `body`, turning SQLite's errors into `HistoryError`s that
        /// name the file; other errors (the caller's own) pass through.
        private static func naming<T>(_ path: String, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as SQLiteError {
                throw HistoryError(error, path: path)
            }
        }
    }
}
