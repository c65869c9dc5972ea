import FetchHistoryModel

/// One file of `Migrations/`, embedded into the binary at build time by the
/// EmbedMigrations plugin.
package struct Migration: Sendable, Equatable {
    /// The file's number: `0002_add_status.sql` is version 2.
    package var version: Int
    /// The file's name after the number, e.g. `add_status`.
    package var name: String
    /// The file's SQL, run as one script.
    package var sql: String
}
