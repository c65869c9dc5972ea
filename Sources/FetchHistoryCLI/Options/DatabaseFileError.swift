/// Why the history the options name cannot be used.
enum DatabaseFileError: Error {
    /// No --database, no FETCH_HISTORY_DB nor XDG_DATA_HOME, and no HOME
    /// for the default path.
    case homeNotSet
    /// Nothing at `path` to read: reading never creates a history.
    case noHistoryToRead(path: String)
    /// Nothing at `path` to `verb` (prune, delete) from.
    case noHistoryToChange(path: String, verb: String)
    /// The file at `path` cannot be written, so nothing can be deleted.
    case readOnlyToChange(path: String)
    /// The folder the history goes in could not be made.
    case cannotCreateFolder(String, SystemError)
    /// `command` works on a local file only, and a server was named.
    case serverNotForCommand(String)
}
