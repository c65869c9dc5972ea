import CSQLite
import FetchHistoryModel
import FoundationEssentials

/// A failure of the history store: a value an app can switch over, phrased
/// (`description`) so the CLI can print it as one sentence.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened as a fetch-history database; `reason`
    /// says why, keeping the underlying error where there is one.
    case cannotOpen(path: String, reason: OpenFailure)
    /// Other processes kept the database locked through every retry; the
    /// write was not made.
    case locked(path: String)
    /// The disk (or SQLite's size limit) is full; the write was not made.
    case full(path: String)
    /// SQLite refused a read or a write of the database at `path`.
    case sqlite(path: String, SQLiteError)
    /// The store was called from inside one of its own `read`/`write`
    /// closures (or `forEachFetch`'s body): finish one before starting the next.
    case reentrantAccess(path: String)
    /// No fetch (or session) id starts with the prefix.
    case notFound(kind: String, prefix: String)
    /// Several ids start with the prefix.
    case ambiguous(kind: String, prefix: String, candidates: [String])
    /// An id prefix with characters no id has.
    case invalidID(String)
    /// An end was recorded for a fetch that is unknown or already ended.
    case notRunning(UUID)
    /// A follower's cursor taken from another history was given to this one.
    case foreignCursor(path: String)
    /// Another process is building the history in `path` (`HistoryStore.buildingNew`).
    case buildUnderWay(path: String)
    /// A fetch was recorded into the history at `path` while a new one was
    /// built for it: the build was thrown away.
    case replacedWhileBuilding(path: String)
    /// The history built at `building` could not be put in place of `path`.
    case cannotReplace(path: String, building: String, reason: String)

    /// The error SQLite reported while the store used the file at `path`.
    init(_ error: SQLiteError, path: String) {
        switch error.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: self = .locked(path: path)
        case SQLITE_FULL: self = .full(path: path)
        default: self = .sqlite(path: path, error)
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "\(path) \(reason)"
        case .locked(let path):
            "\(path) stayed locked by other processes for more than \(Database.busyTimeoutMilliseconds * Int32(Database.busyRetries) / 1000) seconds; the write was not made"
        case .full(let path):
            "\(path): the database or disk is full; the write was not made"
        case .sqlite(let path, let error):
            // The statement stays in the value for debugging; people get SQLite's words.
            "\(path): \(error.message) (SQLite code \(error.code))"
        case .reentrantAccess(let path):
            "the history store of \(path) was called from inside one of its own read or write closures; finish one before starting the next"
        case .notFound(let kind, let prefix):
            IDPrefixError.notFound(kind: kind, prefix: prefix).description
        case .ambiguous(let kind, let prefix, let candidates):
            IDPrefixError.ambiguous(kind: kind, prefix: prefix, candidates: candidates).description
        case .invalidID(let text):
            IDPrefixError.invalid(text).description
        case .notRunning(let id):
            "fetch \(id.lowercased) is not running, so its end cannot be recorded"
        case .foreignCursor(let path):
            "\(path): the follower's place was taken in another history"
        case .buildUnderWay(let path):
            "another import or pull is building this history in \(path); wait for it to finish, then run this one again"
        case .replacedWhileBuilding(let path):
            "\(path) was written by another command while this one built it anew; nothing was added: run it again"
        case .cannotReplace(let path, let building, let reason):
            "cannot put the history built in \(building) in place of \(path): \(reason)"
        }
    }
}
