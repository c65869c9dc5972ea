import FetchHistory

extension DatabaseOptions {
    /// Runs `body` on an existing history opened to delete from it
    /// (`prune`, `delete`): a file, or a server. A
    /// missing file is an error, as for reading: deleting never creates a
    /// database. A read-only file is refused before anything is done.
    /// `beforeCommit` runs inside each write, before it commits
    /// (`CommitPauseOption`).
    @MainActor func changing<T>(
        _ verb: String, beforeCommit: (@Sendable () throws -> Void)? = nil, _ body: (any HistoryWriter) async throws -> T
    ) async throws -> T {
        let path: String
        switch try location() {
        case .file(let file): path = file
        case .server(let url): return try await Self.withTeam(url, body)
        }
        let store: HistoryStore
        do {
            store = try HistoryStore(path: path, access: .readWrite)
        } catch .cannotOpen(_, reason: .missing) {
            throw DatabaseFileError.noHistoryToChange(path: path, verb: verb)
        } catch .cannotOpen(_, reason: .readOnly) {
            throw DatabaseFileError.readOnlyToChange(path: path)
        }
        return try await body(HistoryStore.OnCallersThread(store, beforeCommit: beforeCommit))
    }
}
