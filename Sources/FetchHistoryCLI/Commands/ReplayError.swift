import FoundationEssentials

/// Why `replay` cannot replay a session.
enum ReplayError: Error {
    /// The history has no session at all.
    case noSessions
    /// The recorded fetches of `session` do not make a script (`SessionReplay`'s error).
    case notReplayable(session: UUID, any Error)
    /// `--live`: the session's URL had secrets, which were never recorded.
    case secretsNotRecorded
    /// `--live`: the session's source is neither the random one nor an http(s) URL.
    case notFetchableLive(source: String)
}
