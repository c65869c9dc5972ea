import FetchHistoryModel
import PostgresNIO

// Following: every statement that adds fetches notifies `fetch_history`
// when it commits (a trigger, Migrations/postgres/0001); a follower
// listens, and reads what is new (`fetchesEnded(after:matching:)`) when told.
extension PostgresHistory: ChangeAnnouncer {
    package func announceChanges(_ changed: @escaping @Sendable () -> Void) async throws -> Task<Void, Never> {
        let (listening, ready) = AsyncThrowingStream<Void, any Error>.makeStream()
        let connection = connection
        let logger = logger
        let task = Task {
            do {
                try await connection.listen(on: "fetch_history") { notifications in
                    ready.yield()
                    for try await _ in notifications { changed() }
                }
                ready.finish()
            } catch {
                ready.finish(throwing: error)
                // The connection is gone: one more look shows why.
                changed()
            }
            _ = logger
        }
        do {
            // LISTEN is in force once the consumer runs.
            for try await _ in listening { break }
        } catch {
            task.cancel()
            throw PostgresHistoryError(error, settings: settings, action: "follow the team history", role: role)
        }
        return task
    }
}
