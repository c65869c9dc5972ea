import FetchHistoryModel

/// One file of `Migrations/`, embedded into the binary at build time by the
/// EmbedMigrations plugin.
public struct Migration: Sendable, Equatable {
    /// The file's number: `0002_add_status.sql` is version 2.
    public var version: Int
    /// The file's name after the number, e.g. `add_status`.
    public var name: String
    /// The file's SQL, run as one script.
    public var sql: String
}
