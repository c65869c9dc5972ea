import FetchHistoryModel

/// Brings a database's schema up to date with `Migrations/`.
///
/// The schema version is SQLite's `PRAGMA user_version`; the file is marked as
/// fetch-history's by `PRAGMA application_id` (set by the first migration).
package struct Migrator: Sendable {
    /// `'FHst'`, as written by `0001_create_history.sql`.
    package static let applicationID: Int64 = 0x4648_7374

    package let migrations: [Migration]

    /// - Parameter migrations: the schema steps, numbered 1, 2, … in order.
    package init(migrations: [Migration] = Migration.embedded) {
        self.migrations = migrations
    }

    /// The version a database has once every migration has run.
    package var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies every pending migration, each in its own `BEGIN IMMEDIATE`
    /// transaction that re-reads `user_version` under the write lock (so two
    /// processes opening a new file at once apply each step once), runs the
    /// file, sets `user_version` and checks foreign keys before committing.
    ///
    /// A database of another application, or of a newer fetch-history, is
    /// refused and left untouched.
    package func migrate(_ database: Database) throws {
        // Fast path without the write lock: an up-to-date file is the common case.
        if try state(of: database) == latestVersion { return }
        var created = false
        while true {
            let finished = try database.writeTransaction { () throws -> Bool in
                let version = try state(of: database)
                guard version < latestVersion else { return true }
                if version == 0 { created = true }
                let migration = migrations[version]
                try database.executeScript(migration.sql)
                // PRAGMA takes no bound parameters; the version is our own integer.
                try database.execute("PRAGMA user_version = \(migration.version)")
                if let table = try database.scalarText("PRAGMA foreign_key_check") {
                    throw MigrationError.foreignKeyViolation(migration: migration.version, table: table)
                }
                return false
            }
            if finished { break }
        }
        // A file made here has been through every step, and the ones that
        // copy a table (schema 5, 10) leave the old one's pages free: a new
        // history starts without them. Cheap while it is empty.
        if created { try database.execute("VACUUM") }
    }

    /// Checks, without writing, that `database` is fetch-history's and at the
    /// latest version: what a read-only connection needs before querying.
    package func verify(_ database: Database) throws {
        let version = try state(of: database)
        if version < latestVersion {
            throw MigrationError.olderSchema(found: version, supported: latestVersion)
        }
    }

    /// The database's schema version, after refusing foreign and newer files.
    package func state(of database: Database) throws -> Int {
        let version = Int(try database.scalarInt64("PRAGMA user_version"))
        let applicationID = try database.scalarInt64("PRAGMA application_id")
        let isEmpty = try database.scalarInt64("SELECT count(*) FROM sqlite_schema") == 0
        let isOurs = applicationID == Self.applicationID || (applicationID == 0 && version == 0 && isEmpty)
        guard isOurs else {
            throw MigrationError.foreignDatabase(applicationID: applicationID)
        }
        guard version <= latestVersion else {
            throw MigrationError.newerSchema(found: version, supported: latestVersion)
        }
        return version
    }
}

/// Why a database's schema could not be brought up to date.
public enum MigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is a SQLite database of another application.
    case foreignDatabase(applicationID: Int64)
    /// The file was written by a newer fetch-history.
    case newerSchema(found: Int, supported: Int)
    /// The file needs migrating but was opened read-only.
    case olderSchema(found: Int, supported: Int)
    /// A migration left rows pointing at missing parents.
    case foreignKeyViolation(migration: Int, table: String)

    public var description: String {
        switch self {
        case .foreignDatabase:
            "is a SQLite database of another application, not a fetch-history database"
        case .newerSchema(let found, let supported):
            "was written by a newer fetch-history (schema version \(found); this version knows up to \(supported)); upgrade fetch-history to read it"
        case .olderSchema(let found, let supported):
            "has schema version \(found) and needs upgrading to \(supported), but it is read-only; make it writable once so fetch-history can upgrade it"
        case .foreignKeyViolation(let migration, let table):
            "migration \(migration) left rows in \(table) that point at missing rows"
        }
    }
}
