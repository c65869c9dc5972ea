import ArgumentParser

/// A command whose work is reading or changing the history through the
/// commands' seam (`HistoryReader`, `HistoryWriter`), whatever holds it.
///
/// `FetchHistoryCommand.main` runs it on the main actor, at once and inline
/// until an `await` suspends. On a local file none does (the store answers
/// on the caller's thread, `HistoryStore.onCallersThread`), so the command
/// starts no thread and starts as fast as a synchronous one; a history that
/// suspends (a server's) resumes on the main queue.
protocol HistoryCommand: ParsableCommand {
    @MainActor mutating func run() async throws
}
