/// A history that says when it may have changed: what a follower
/// (`list --follow`) waits on between reads, where a file's follower
/// watches the file. A call of `changed` only says "look again": what
/// changed is read from the history itself.
public protocol ChangeAnnouncer: Sendable {
    /// Calls `changed` each time the history may have changed, from the
    /// moment this returns (so a read made after it misses nothing) until
    /// the returned task is cancelled.
    func announceChanges(_ changed: @escaping @Sendable () -> Void) async throws -> Task<Void, Never>
}
