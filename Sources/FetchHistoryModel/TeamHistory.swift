import FoundationEssentials

/// A history many machines push their fetches into and pull from: a team's,
/// on a server (`push`, `pull`). Besides the commands' seam it takes whole
/// batches of fetches with their sessions, and has an id of its own by
/// which each machine remembers how far it has pushed.
public protocol TeamHistory: HistoryWriter {
    /// Made with the history: a history made anew has a new one.
    var historyID: UUID { get }

    /// How the history is named to people: `ci@db.example:5432/team`,
    /// never with a password.
    var displayName: String { get }

    /// Adds the fetches it lacks, and the sessions they belong to that it
    /// lacks, in one transaction: all or none. Returns how many fetches were
    /// new; the others it had already.
    nonisolated(nonsending) func add(_ fetches: [Fetch], sessions: [Session]) async throws -> Int

    /// Lets go of the history (its connection).
    func close() async
}
