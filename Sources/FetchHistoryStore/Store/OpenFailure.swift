import CSQLite
import FetchHistoryModel

/// Why a file could not be opened as a fetch-history database.
///
/// `description` completes a sentence that starts with the file's path:
/// "history.sqlite is a SQLite database of another application, …".
public enum OpenFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Opened for reading, and there is no such file.
    case missing
    /// Opened for reading, and the file is empty: no history yet.
    case empty
    case isDirectory
    /// The file does not start with SQLite's header.
    case notADatabase
    /// A SQLite database of another application (its `application_id`).
    case foreignDatabase(applicationID: Int64)
    /// Written by a newer fetch-history.
    case newerSchema(found: Int, supported: Int)
    /// An older schema, opened `.readOnly`, which never writes: open it for
    /// writing once to upgrade it.
    case needsUpgrade(found: Int, supported: Int)
    /// Opened for writing, and the file is read-only.
    case readOnly
    /// Opened for reading, and SQLite could not open what it reads beside
    /// the file: the `-wal` and `-shm` of a writer, not readable by this
    /// user (`SQLITE_CANTOPEN` or `SQLITE_READONLY`).
    case unreadable(SQLiteError)
    /// The file would be created in a folder its owner made read-only.
    case folderNotWritable
    /// SQLite found the file damaged (`SQLITE_CORRUPT` or `SQLITE_NOTADB`).
    case damaged(SQLiteError)
    /// A migration left rows pointing at missing parents.
    case migrationFailed(MigrationError)
    /// Another failure SQLite reported while opening.
    case sqlite(SQLiteError)

    init(_ error: MigrationError) {
        switch error {
        case .foreignDatabase(let applicationID): self = .foreignDatabase(applicationID: applicationID)
        case .newerSchema(let found, let supported): self = .newerSchema(found: found, supported: supported)
        case .olderSchema(0, _): self = .empty
        case .olderSchema(let found, let supported): self = .needsUpgrade(found: found, supported: supported)
        case .foreignKeyViolation: self = .migrationFailed(error)
        }
    }

    /// Whether `error`, met opening a file to read it, means what
    /// `unreadable` says.
    static func isUnreadable(_ error: SQLiteError) -> Bool {
        error.primaryCode == SQLITE_CANTOPEN || error.primaryCode == SQLITE_READONLY
    }

    init(_ error: SQLiteError) {
        switch error.primaryCode {
        case SQLITE_READONLY: self = .readOnly
        case SQLITE_CORRUPT, SQLITE_NOTADB: self = .damaged(error)
        default: self = .sqlite(error)
        }
    }

    public var description: String {
        switch self {
        case .missing:
            "does not exist"
        case .empty:
            "is empty: it holds no history yet; record one with `fetch-history fetch`"
        case .isDirectory:
            "cannot be opened: is a directory, not a database file"
        case .notADatabase:
            "cannot be opened: file is not a SQLite database"
        case .foreignDatabase:
            "is a SQLite database of another application, not a fetch-history database"
        case .newerSchema(let found, let supported):
            "was written by a newer fetch-history (schema version \(found); this version knows up to \(supported)); upgrade fetch-history to read it"
        case .needsUpgrade(let found, let supported):
            "has schema version \(found) and needs upgrading to \(supported), but it is read-only; make it writable once so fetch-history can upgrade it"
        case .readOnly:
            "is read-only, so nothing can be recorded in it"
        case .unreadable(let error):
            "cannot be read: a program writing it keeps its -wal and -shm files beside it, and this user cannot open them (\(error.message))"
        case .folderNotWritable:
            "cannot be created: its folder is not writable"
        case .damaged(let error):
            "cannot be opened: \(error.message)"
        case .migrationFailed(let error):
            "cannot be upgraded: \(error)"
        case .sqlite(let error):
            "cannot be opened: \(error.message)"
        }
    }
}
