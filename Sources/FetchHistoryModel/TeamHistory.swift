import FoundationEssentials

/// A history many machines push their fetches into and pull from: a team's,
/// on a server (`push`, `pull`). Besides the commands' seam it takes whole
/// batches of fetches with their sessions, and has an id of its own by
/// which each machine remembers how far it has pushed.
public protocol TeamHistory: HistoryWriter, PushDestination {
    /// Made with the history: a history made anew has a new one.
    var historyID: UUID { get }

    /// Adds the fetches it lacks, and the sessions they belong to that it
    /// lacks, in one transaction: all or none. Returns how many fetches were
    /// new; the others it had already.
    nonisolated(nonsending) func add(_ fetches: [Fetch], sessions: [Session]) async throws -> Int

    /// Lets go of the history (its connection).
    func close() async
}

extension TeamHistory {
    /// The history's own id: a history made anew is pushed to from the start.
    public var pushKey: String { historyID.lowercased }

    /// One read of the file, one transaction on the server.
    public var pushBatchSize: Int { 10_000 }
}
