import CSQLite
import FetchHistoryModel

// A history made in one go: an import or a pull into a history that is not
// there yet, built the way SQLite copies rows fastest, beside its place.
extension HistoryStore {
    /// Runs `body` in a write transaction on a history built anew at `path`,
    /// when there is no history there or the one there holds nothing (no
    /// fetch, session or mark) and no connection has it open; returns nil,
    /// touching nothing, otherwise: then write into it as usual.
    ///
    /// The history is built beside its place, in `path-import`, the way
    /// SQLite copies rows fastest: nothing journaled but the empty schema,
    /// no lock for others to wait on (the file is nobody's until it is
    /// done), no sync until the end, foreign keys checked once
    /// at the end, the indexes built after the rows (`importFetches`). Then
    /// it is synced, switched to the WAL mode every history has, and renamed
    /// over `path` in one step. Killed at any moment, `path` is as it was
    /// (absent, or empty) or complete; the unfinished file left beside it is
    /// removed by `removeUnfinishedBuild(besides:)`.
    ///
    /// ```swift
    /// let summary = try HistoryStore.buildingNew(at: path) { db in try db.importFetches(from: reader) }
    /// ```
    ///
    /// - Throws: `HistoryError.buildUnderWay` when another process is
    ///   building this history; `HistoryError.replacedWhileBuilding` when a
    ///   fetch was recorded into `path` meanwhile (nothing of the build is
    ///   kept); what `body` threw, the build removed.
    public static func buildingNew<T>(at path: String, _ body: (Database) throws -> T) throws -> T? {
        guard mayBeReplaced(path) else { return nil }
        let building = unfinishedBuildPath(besides: path)
        _ = removeUnfinishedBuild(besides: path)
        if DatabaseFile.signature(of: building) != nil { throw HistoryError.buildUnderWay(path: building) }
        do {
            return try build(building, replacing: path, body)
        } catch {
            DatabaseFile.remove(building)
            throw error
        }
    }

    /// Where `buildingNew(at:_:)` builds the history at `path`.
    public static func unfinishedBuildPath(besides path: String) -> String {
        path + "-import"
    }

    /// Removes the file a build of the history at `path` left when it was
    /// stopped (killed, the machine switched off), unless a build is still
    /// at work in it; returns its path when it did.
    @discardableResult
    public static func removeUnfinishedBuild(besides path: String) -> String? {
        let building = unfinishedBuildPath(besides: path)
        guard DatabaseFile.signature(of: building) != nil, !isBeingBuilt(building) else { return nil }
        DatabaseFile.remove(building)
        return building
    }

    /// Whether a build holds the file at `building`: its exclusive lock,
    /// taken before it writes anything, is kept until it is renamed away.
    private static func isBeingBuilt(_ building: String) -> Bool {
        let noWait = Database.LockWait(timeoutMilliseconds: 0, pause: { _ in })
        do {
            let database = try Database(path: building, access: .readWrite, lockWait: noWait)
            try database.execute("BEGIN EXCLUSIVE")
            try database.execute("COMMIT")
            return false
        } catch {
            // Anything but a lock held is an unfinished file: half written,
            // perhaps not even a database yet.
            return error.isBusy
        }
    }

    /// Whether the history at `path` may be replaced by a new file: there
    /// is none, or it is fetch-history's (of this schema or an older one),
    /// holds nothing, is this user's and has no connection (no `-wal`,
    /// `-shm` or `-journal` beside it).
    static func mayBeReplaced(_ path: String) -> Bool {
        guard let signature = DatabaseFile.signature(of: path) else { return true }
        guard !DatabaseFile.hasSideFiles(path), DatabaseFile.isOwnedByThisUser(path) else { return false }
        if signature.size == 0 { return true }
        do {
            // Read as immutable: no connection has it open, and reading it
            // must leave nothing beside it.
            let database = try Database(path: path, access: .readOnly, reach: .snapshot(of: signature), lockWait: .standard)
            // Another application's file, or a newer fetch-history's, is refused by the usual path.
            _ = try Migrator().state(of: database)
            return try database.holdsNothing()
        } catch {
            // Not a history, or not one this build can read: the usual path says why.
            return false
        }
    }

    /// Builds the history in `building` and renames it over `path`, holding
    /// the build's lock throughout: the connection closes after the rename.
    private static func build<T>(_ building: String, replacing path: String, _ body: (Database) throws -> T) throws -> T {
        do {
            try DatabaseFile.check(building, for: .create)
        } catch {
            throw HistoryError.cannotOpen(path: building, reason: error)
        }
        let database: Database
        do {
            database = try Database(path: building, access: .create)
        } catch {
            throw HistoryError(error, path: building)
        }
        do {
            try database.prepareForBuilding()
            try Migrator().migrate(database)
            try database.registerProcessAliveFunction()
            try database.registerTextSearchFunction()
            try database.registerProblemFunction()
            // Synced at its commit: the file is whole on disk before it is
            // renamed into place.
            try database.execute("PRAGMA synchronous = FULL")
            let result = try database.writeTransaction {
                let result = try body(database)
                try database.checkForeignKeys()
                return result
            }
            try database.useWriteAheadLog()
            // Last look: a history made at `path` meanwhile, and written
            // (a `fetch` started while the build ran), is not replaced.
            guard mayBeReplaced(path) else { throw HistoryError.replacedWhileBuilding(path: path) }
            try DatabaseFile.moveIntoPlace(building, over: path)
            return result
        } catch let error as SQLiteError {
            throw HistoryError(error, path: building)
        }
    }
}

extension Database {
    /// Sets a new file up to be built alone: the lock taken and kept (no
    /// other connection can open it while it is built), no sync until the
    /// end. The rollback journal stays (defensive mode, which every
    /// connection has, refuses `journal_mode = OFF`), and costs nothing:
    /// it only keeps the pages the file had before the build, its schema.
    fileprivate func prepareForBuilding() throws(SQLiteError) {
        try execute("PRAGMA locking_mode = EXCLUSIVE")
        try execute("PRAGMA synchronous = OFF")
        try execute("BEGIN EXCLUSIVE")
        try execute("COMMIT")
        try execute("PRAGMA foreign_keys = OFF")
    }

    /// Checks every foreign key at once, as the rows were added unchecked:
    /// each distinct session a table refers to, rather than each row as
    /// `PRAGMA foreign_key_check` does (read off the index on
    /// `fetch.session_id`, built by then, instead of the whole table: 0.04 s
    /// of CPU for 1M fetches against 0.16 s, and no page of the table read
    /// back from the disk).
    fileprivate func checkForeignKeys() throws(SQLiteError) {
        for reference in HistorySQL.sessionReferences where try scalarInt64(reference.danglingSQL) != 0 {
            // SQLITE_CONSTRAINT_FOREIGNKEY (787), which Swift does not import.
            throw SQLiteError(code: 787, message: "a row of \(reference.table) refers to a row that is not there")
        }
    }

    /// Whether no table of the history holds a row: no fetch, session,
    /// push mark, live replay or sequence mark.
    fileprivate func holdsNothing() throws -> Bool {
        let tables = Set(try rows(HistorySQL.tableNames) { $0.text(0) })
        for (table, sql) in HistorySQL.anyRowOfTable where tables.contains(table) {
            if try scalarInt64(sql) != 0 { return false }
        }
        return true
    }
}

extension HistorySQL {
    /// Every foreign key of the schema, each a column referring to
    /// `session (id)`, with a query answering 1 when a row refers to a
    /// session that is not there. A migration that adds a foreign key adds
    /// it here (a test compares this list with the schema's).
    static let sessionReferences: [(table: String, column: String, danglingSQL: String)] = [
        ("fetch", "session_id", """
            SELECT EXISTS (
                SELECT 1 FROM (SELECT DISTINCT session_id AS id FROM fetch) AS referred
                WHERE NOT EXISTS (SELECT 1 FROM session WHERE session.id = referred.id)
            )
            """),
        ("live_replay", "session_id", """
            SELECT EXISTS (
                SELECT 1 FROM live_replay WHERE NOT EXISTS (SELECT 1 FROM session WHERE session.id = live_replay.session_id)
            )
            """),
    ]

    /// For each table a history may have, a query answering 1 when it holds a row.
    static let anyRowOfTable = [
        ("fetch", "SELECT EXISTS (SELECT 1 FROM fetch)"),
        ("session", "SELECT EXISTS (SELECT 1 FROM session)"),
        ("push_mark", "SELECT EXISTS (SELECT 1 FROM push_mark)"),
        ("live_replay", "SELECT EXISTS (SELECT 1 FROM live_replay)"),
        ("fetch_seq_high_water", "SELECT EXISTS (SELECT 1 FROM fetch_seq_high_water)"),
    ]
}
