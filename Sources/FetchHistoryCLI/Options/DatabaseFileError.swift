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

extension DatabaseFileError {
    /// The error with its paths as they may be printed (`DatabaseArgument.shown`).
    var shown: Self {
        switch self {
        case .homeNotSet, .serverNotForCommand: self
        case .noHistoryToRead(let path): .noHistoryToRead(path: DatabaseArgument.shown(path))
        case .noHistoryToChange(let path, let verb): .noHistoryToChange(path: DatabaseArgument.shown(path), verb: verb)
        case .readOnlyToChange(let path): .readOnlyToChange(path: DatabaseArgument.shown(path))
        case .cannotCreateFolder(let folder, let error): .cannotCreateFolder(DatabaseArgument.shown(folder), error)
        }
    }
}
