import Foundation
import Logging
import PostgresNIO

/// One file of `Migrations/postgres/`, embedded into the binary at build
/// time by the EmbedMigrations plugin.
package struct PostgresMigration: Sendable, Equatable {
    package var version: Int
    package var name: String
    package var sql: String

    /// The file's statements, one at a time: the extended query protocol,
    /// the only one postgres-nio speaks, runs one statement per query.
    /// Split at each `;` outside quotes (`'…'`, `"…"`), dollar quotes
    /// (`$$…$$`, `$tag$…$tag$`) and `--` comments; empty ones dropped.
    package var statements: [String] {
        var statements: [String] = []
        var current = ""
        var characters = sql[...]
        func take(until end: String) {
            if let range = characters.range(of: end) {
                current += characters[..<range.upperBound]
                characters = characters[range.upperBound...]
            } else {
                current += characters
                characters = ""
            }
        }
        while let character = characters.first {
            if characters.hasPrefix("--") {
                // A comment: dropped, to its line's end.
                if let newline = characters.firstIndex(of: "\n") { characters = characters[newline...] } else { characters = "" }
            } else if character == "'" || character == "\"" {
                current.append(character)
                characters = characters.dropFirst()
                take(until: String(character))
            } else if character == "$", let close = characters.dropFirst().firstIndex(of: "$"),
                      characters[characters.index(after: characters.startIndex)..<close].allSatisfy({ $0.isLetter || $0 == "_" }) {
                let tag = String(characters[...close])
                current += tag
                characters = characters[characters.index(after: close)...]
                take(until: tag)
            } else if character == ";" {
                statements.append(current)
                current = ""
                characters = characters.dropFirst()
            } else {
                current.append(character)
                characters = characters.dropFirst()
            }
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

/// Brings a server's `fetch_history` schema up to date with
/// `Migrations/postgres/`, as the first command that needs it connects.
///
/// The steps run in one transaction begun once an advisory lock is held,
/// which then reads the version again: two runners pushing to a new server
/// at once create the schema once, the second waiting for the first and
/// then finding nothing left to do. The lock is taken before the
/// transaction begins, not inside it: a transaction begun earlier would go
/// on seeing the catalogs as they were (a schema "missing" that the first
/// runner has made, measured: "schema already exists"), as PostgreSQL
/// reads the catalog changes of other sessions at a transaction's start.
package struct PostgresMigrator: Sendable {
    /// The advisory lock's key: `'FHst'`, as the SQLite files' application id.
    static let lockKey: Int64 = 0x4648_7374

    package var migrations: [PostgresMigration] = PostgresMigration.embedded

    package var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies every pending migration; refuses a server whose schema is
    /// newer than this version knows.
    func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        // Fast path without the lock: an up-to-date server is the common case.
        if try await version(connection, logger: logger) == latestVersion { return }
        try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
        do {
            try await applyPending(connection, logger: logger)
        } catch {
            // Released with the connection too, if this cannot be sent.
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
            throw error
        }
        try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
    }

    /// Under the lock, in one transaction: the version read again, and the
    /// steps above it run.
    private func applyPending(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("BEGIN", logger: logger)
        do {
            let found = try await version(connection, logger: logger)
            guard found <= latestVersion else { throw PostgresHistoryError.newerSchema(found: found, supported: latestVersion) }
            for migration in migrations where migration.version > found {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO fetch_history.migration (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                )
            }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// The schema's version on the server: 0 before the first migration.
    func version(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let exists = try await connection.query(
            "SELECT to_regclass('fetch_history.migration') IS NOT NULL", logger: logger
        ).collect().first?.decode(Bool.self) ?? false
        guard exists else { return 0 }
        let version = try await connection.query(
            "SELECT coalesce(max(version), 0) FROM fetch_history.migration", logger: logger
        ).collect().first?.decode(Int.self) ?? 0
        guard version <= latestVersion else { throw PostgresHistoryError.newerSchema(found: version, supported: latestVersion) }
        return version
    }
}
