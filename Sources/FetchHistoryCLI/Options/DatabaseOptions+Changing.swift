import FetchHistory

extension DatabaseOptions {
    /// Opens an existing history to delete from it (`prune`, `delete`). A
    /// missing file is an error, as for reading: deleting never creates a
    /// database. A read-only file is refused before anything is done.
    /// `beforeCommit` runs inside each write, before it commits
    /// (`CommitPauseOption`).
    func openForChanging(_ verb: String, beforeCommit: (@Sendable () throws -> Void)? = nil) throws -> any HistoryWriter {
        let path = try path()
        do {
            return HistoryStore.OnCallersThread(try HistoryStore(path: path, access: .readWrite), beforeCommit: beforeCommit)
        } catch .cannotOpen(_, reason: .missing) {
            throw DatabaseFileError.noHistoryToChange(path: path, verb: verb)
        } catch .cannotOpen(_, reason: .readOnly) {
            throw DatabaseFileError.readOnlyToChange(path: path)
        }
    }
}
