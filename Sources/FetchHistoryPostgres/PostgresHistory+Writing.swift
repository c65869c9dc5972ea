import FetchHistoryModel
import Foundation
import PostgresNIO
import Synchronization

// Writing: fetches go to the server in batches, each copied (`COPY … FROM
// STDIN`) into staging tables, then added by one `INSERT … SELECT … ON
// CONFLICT DO NOTHING`: a fetch the server has is skipped, so a push or an
// import run again sends only what is missing.
extension PostgresHistory: TeamHistory {
    package var displayName: String { settings.displayName }

    package nonisolated(nonsending) func add(_ fetches: [Fetch], sessions: [Session]) async throws -> Int {
        try await run("push fetches") { [self] in
            try await transaction { try await insert(fetches, sessions: sessions) }
        }
    }

    package nonisolated(nonsending) func importFetches(
        _ produce: @escaping @Sendable (_ insert: (Fetch) throws -> Void) throws -> Void
    ) async throws -> ImportSummary {
        try await run("import fetches") { [self] in
            // All or nothing, as an import into a file: one transaction.
            try await transaction {
                var summary = ImportSummary(added: 0, skipped: 0)
                summary.sourcesWithSecretsHidden = try await ImportedBatches.read(produce) { fetches, sessions in
                    let added = try await insert(fetches, sessions: sessions)
                    summary.added += added
                    summary.skipped += fetches.count - added
                }
                return summary
            }
        }
    }

    /// Adds `fetches` and `sessions` inside the caller's transaction;
    /// returns how many fetches were new.
    func insert(_ fetches: [Fetch], sessions: [Session]) async throws -> Int {
        guard !fetches.isEmpty else { return 0 }
        try await connection.query("""
            CREATE TEMP TABLE IF NOT EXISTS staged_session (
                id uuid, started_at bigint, source text, host text, process_id integer, boot_id text, process_started bigint
            ) ON COMMIT DELETE ROWS
            """, logger: logger)
        try await connection.query("""
            CREATE TEMP TABLE IF NOT EXISTS staged_fetch (
                ordinal bigint GENERATED ALWAYS AS IDENTITY,
                id uuid, session_id uuid, source text, started_at bigint, ended_at bigint, duration_ms bigint, outcome text,
                cancel_reason text, value json, error text, http_status integer, response_bytes bigint, tapped_at bigint,
                timeout_ms bigint, ended_by text, ended_by_at bigint, answer_value json, answer_error text, host text,
                response_body text, response_content_type text, response_body_truncated boolean
            ) ON COMMIT DELETE ROWS
            """, logger: logger)
        var rows = CopyRows()
        if !sessions.isEmpty {
            for session in sessions { rows.session(session) }
            let buffer = rows.buffer
            try await connection.copyFrom(table: "staged_session", columns: CopyRows.sessionColumns, logger: logger) { writer in
                try await writer.write(buffer)
            }
            try await connection.query("""
                INSERT INTO fetch_history.session (id, started_at, source, host, process_id, boot_id, process_started)
                SELECT id, started_at, source, host, process_id, boot_id, process_started FROM staged_session
                ON CONFLICT (id) DO NOTHING
                """, logger: logger)
        }
        try await connection.copyFrom(table: "staged_fetch", columns: CopyRows.fetchColumns, logger: logger) { writer in
            // A megabyte at a time: the rows are written as the server takes them.
            var rows = CopyRows()
            for fetch in fetches {
                rows.fetch(fetch)
                if rows.buffer.readableBytes >= 1 << 20 {
                    try await writer.write(rows.buffer)
                    rows.reset()
                }
            }
            if rows.buffer.readableBytes > 0 { try await writer.write(rows.buffer) }
        }
        let columns = CopyRows.fetchColumns.joined(separator: ", ")
        let added = try await connection.query(PostgresQuery(unsafeSQL: """
            WITH added AS (
                INSERT INTO fetch_history.fetch (\(columns))
                SELECT \(columns) FROM staged_fetch ORDER BY ordinal
                ON CONFLICT (id) DO NOTHING
                RETURNING 1
            )
            SELECT count(*) FROM added
            """), logger: logger).collect().first?.decode(Int.self) ?? 0
        try await connection.query("TRUNCATE staged_fetch, staged_session", logger: logger)
        return added
    }
}

/// What an import hands the server: the fetches a producer gives, in
/// batches, each with the sessions first named in it.
///
/// The producer (`FetchRecordReader`, a file's store) is synchronous and
/// runs on a thread of its own; the batches cross to the server's side in a
/// `BatchHandoff` (at most two wait), so memory stays flat. An id the input
/// gives twice is refused there, naming the record that gave it first, as
/// an import into a file does; a source with secrets is hidden as
/// recording hides it.
enum ImportedBatches {
    static let size = 10_000

    /// Returns how many distinct sources held secrets, hidden before they
    /// were sent (`ImportSummary.sourcesWithSecretsHidden`).
    static func read(
        _ produce: @escaping @Sendable (_ insert: (Fetch) throws -> Void) throws -> Void,
        _ consume: ([Fetch], [Session]) async throws -> Void
    ) async throws -> Int {
        let handoff = BatchHandoff<Fetch>(batchSize: size, batchesAhead: 2)
        let withSecrets = Mutex<Set<String>>([])
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { finished.signal() }
            var records: [UUID: Int] = [:]
            do {
                try produce { fetch in
                    var fetch = fetch
                    if let hidden = RedactedURL.hidingSecrets(ofSource: fetch.source) {
                        withSecrets.withLock { _ = $0.insert(fetch.source) }
                        fetch.source = hidden
                    }
                    let record = records.count + 1
                    if let first = records.updateValue(record, forKey: fetch.id) {
                        records[fetch.id] = first
                        throw RepeatedFetchID(id: fetch.id, firstRecord: first)
                    }
                    try handoff.put(fetch)
                }
                handoff.finish()
            } catch {
                handoff.finish(throwing: error)
            }
        }
        do {
            var seenSessions: Set<UUID> = []
            while let fetches = try await handoff.next() {
                // As an import into a file makes them: no recorder process.
                let sessions = fetches.filter { seenSessions.insert($0.sessionID).inserted }.map { fetch in
                    Session(
                        id: fetch.sessionID, startedAt: fetch.startedAt, source: fetch.source,
                        process: ProcessIdentity(host: fetch.host, processID: 0)
                    )
                }
                try await consume(fetches, sessions)
            }
        } catch {
            handoff.stop(throwing: error)
            await waitFor(finished)
            throw error
        }
        await waitFor(finished)
        return withSecrets.withLock { $0.count }
    }

    /// Waits for the producer's thread to end, without blocking this one.
    private static func waitFor(_ finished: DispatchSemaphore) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                finished.wait()
                done.resume()
            }
        }
    }
}
