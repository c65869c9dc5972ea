import FoundationEssentials

/// A failure of the history store, phrased so the CLI can print it as one
/// sentence.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened as a fetch-history database.
    case cannotOpen(path: String, reason: String)
    /// SQLite refused a read or a write of the database at `path`.
    case sqlite(path: String, SQLiteError)
    /// No fetch (or session) id starts with the prefix.
    case notFound(kind: String, prefix: String)
    /// Several ids start with the prefix.
    case ambiguous(kind: String, prefix: String, candidates: [String])
    /// An id prefix with characters no id has.
    case invalidID(String)
    /// An end was recorded for a fetch that is unknown or already ended.
    case notRunning(UUID)
    /// Other processes kept the database locked through every retry.
    case busy(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "\(path) \(reason)"
        case .sqlite(let path, let error):
            // The statement stays in the value for debugging; people get SQLite's words.
            "\(path): \(error.message) (SQLite code \(error.code))"
        case .notFound(let kind, let prefix):
            "no \(kind) has an id starting with '\(prefix)'"
        case .ambiguous(let kind, let prefix, let candidates):
            "'\(prefix)' matches several \(kind)s (\(candidates.joined(separator: ", "))…); give more of the id"
        case .invalidID(let text):
            "'\(text)' is not an id or id prefix (ids are hexadecimal digits and dashes)"
        case .busy(let path):
            "\(path) stayed locked by other processes for more than \(Database.busyTimeoutMilliseconds * Int32(Database.busyRetries) / 1000) seconds; the write was not made"
        case .notRunning(let id):
            "fetch \(id.lowercased) is not running, so its end cannot be recorded"
        }
    }
}
