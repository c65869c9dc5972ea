import FetchHistoryModel
import FoundationEssentials

// Recording: what a view state's recorder writes, each call inside a
// `HistoryStore.write`.
extension Database {
    /// Records the start of a session: once per run, before its fetches.
    @discardableResult
    public func beginSession(
        id: UUID = .timeOrdered(), source: String, at startedAt: Timestamp = .now,
        process: ProcessIdentity = .current
    ) throws -> Session {
        let session = Session(id: id, startedAt: startedAt, source: source, process: process)
        try execute(HistorySQL.insertSession, [
            .text(session.id.lowercased), .integer(startedAt.millisecondsSince1970), .text(source),
            .text(process.host), .integer(Int64(process.processID)), .text(process.bootID),
            .integer(process.startTicks),
        ])
        return session
    }

    /// Records that a fetch was tapped and started; it shows as running
    /// until its end is recorded.
    public func recordStart(
        of id: UUID, in session: Session, at startedAt: Timestamp, timeout: Duration? = nil
    ) throws {
        try execute(HistorySQL.insertFetch, [
            .text(id.lowercased), .text(session.id.lowercased), .text(session.source),
            .integer(startedAt.millisecondsSince1970), .integer(timeout?.wholeMilliseconds),
        ])
    }

    /// Records how a running fetch ended. Fails with `HistoryError.notRunning`
    /// if the fetch is unknown or already ended, so each fetch ends exactly once.
    public func recordEnd(
        of id: UUID, at endedAt: Timestamp, duration: Duration, outcome: FetchOutcome,
        cause: FetchEnd.Cause, response: SourceResponse? = nil
    ) throws {
        let columns = StoredOutcome(outcome)
        try execute(HistorySQL.endFetch, [
            .integer(endedAt.millisecondsSince1970), .integer(duration.wholeMilliseconds),
            .text(columns.outcome), .text(columns.cancelReason), .value(columns.value),
            .text(columns.error), .integer(response?.status), .integer(response?.bytes),
            .text(cause.name), .value(cause.answerValue), .text(cause.answerError),
            .text(id.lowercased),
            .text(response?.body?.text), .text(response?.body?.contentType), .integer(response?.body.map { $0.isTruncated ? 1 : 0 }),
        ])
        if changes != 1 { throw HistoryError.notRunning(id) }
    }
}


// The SQL of recording.
extension HistorySQL {
    @_spi(Benchmarks) public static let insertSession = """
        INSERT INTO session (id, started_at, source, host, process_id, boot_id, process_started)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// A fetch starts when it is tapped: `started_at` and `tapped_at` are the
    /// same moment, kept apart so a replay can tell if either was changed.
    /// Its `seq` is SQLite's (the largest plus one: NULL asks for it) unless
    /// a deletion took away a larger one (`Migrations/0007_keep_seq_growing.sql`).
    /// Named `rowid`, which `seq` is another name for, and which the tests'
    /// histories of schema 4 have too. Its host is its session's
    /// (`Migrations/0008_fetch_host.sql`).
    @_spi(Benchmarks) public static let insertFetch = """
        INSERT INTO fetch (rowid, id, session_id, source, started_at, tapped_at, timeout_ms, host)
        VALUES (\(seqAboveHighWater), ?1, ?2, ?3, ?4, ?4, ?5, (SELECT host FROM session WHERE id = ?2))
        """

    /// The high-water mark plus one when it is not below the largest `seq`
    /// in the table; else NULL.
    private static let seqAboveHighWater = """
        (SELECT seq + 1 FROM fetch_seq_high_water WHERE seq >= (SELECT coalesce(max(rowid), 0) FROM fetch))
        """

    /// Keeps `?` as the high-water mark unless it already is higher.
    static let raiseSeqHighWater = """
        INSERT INTO fetch_seq_high_water (only_row, seq) VALUES (1, ?)
        ON CONFLICT (only_row) DO UPDATE SET seq = max(seq, excluded.seq)
        """

    @_spi(Benchmarks) public static let endFetch = """
        UPDATE fetch SET ended_at = ?1, duration_ms = ?2, outcome = ?3, cancel_reason = ?4, value = ?5, error = ?6,
            http_status = ?7, response_bytes = ?8, ended_by = ?9, ended_by_at = ?1, answer_value = ?10, answer_error = ?11,
            response_body = ?13, response_content_type = ?14, response_body_truncated = ?15
        WHERE id = ?12 AND outcome IS NULL
        """
}
