/// Where `push` sends a history's ended fetches, a batch at a time, each
/// batch remembered by the file once the destination has it
/// (`HistoryStore.push(to:)`): a team's history on a server
/// (`TeamHistory`), or a collector of OpenTelemetry spans.
public protocol PushDestination: Sendable {
    /// What a file remembers how far it has pushed here by: the same
    /// destination gives the same key every time, and never a secret.
    var pushKey: String { get }

    /// How the destination is named to people: `ci@db.example:5432/team`,
    /// never with a password.
    var displayName: String { get }

    /// The most fetches one `add` is given.
    var pushBatchSize: Int { get }

    /// Takes `fetches`, ended, with the sessions they belong to, whole or
    /// not at all. Returns how many it had not had before (for a
    /// destination that cannot tell, how many it accepted).
    nonisolated(nonsending) func add(_ fetches: [Fetch], sessions: [Session]) async throws -> Int
}
