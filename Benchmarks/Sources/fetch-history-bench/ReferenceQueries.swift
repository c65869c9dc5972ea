import Foundation
/// What `sqlite3` runs to do the same work as each fetch-history command:
/// the same rows, the same fields, the same order.
enum ReferenceQueries {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` from integer milliseconds, exactly (no
    /// floating point), as the export writes it.
    private static func iso8601(_ column: String) -> String {
        "strftime('%Y-%m-%dT%H:%M:%S', \(column) / 1000, 'unixepoch') || printf('.%03dZ', \(column) % 1000)"
    }

    /// `export --format jsonl`: every field of the export record, oldest first.
    static let export = """
        SELECT id, session_id AS session, source, coalesce(outcome, 'running') AS outcome,
            cancel_reason AS cancelReason, value, error, \(iso8601("started_at")) AS startedAt,
            CASE WHEN ended_at IS NOT NULL THEN \(iso8601("ended_at")) END AS endedAt,
            duration_ms AS durationMs, http_status AS status, response_bytes AS bytes,
            CASE WHEN tapped_at IS NOT NULL THEN \(iso8601("tapped_at")) END AS tappedAt, timeout_ms AS timeoutMs,
            ended_by AS endedBy, CASE WHEN ended_by_at IS NOT NULL THEN \(iso8601("ended_by_at")) END AS endedByAt,
            answer_value AS answerValue, answer_error AS answerError, host
        FROM fetch ORDER BY started_at, rowid
        """

    /// `list`'s columns: short id, local start, duration, outcome, HTTP
    /// status and size, the result, the source.
    private static let listColumns = """
        SELECT substr(id, 1, 8), datetime(started_at / 1000, 'unixepoch', 'localtime'), duration_ms,
            coalesce(outcome, 'running'), http_status, response_bytes, coalesce(value, error, cancel_reason, '-'), source
        FROM fetch
        """

    /// `list`: the newest 20.
    static let listNewest = "\(listColumns) ORDER BY started_at DESC, rowid DESC LIMIT 20"

    /// `list --outcome failed`.
    static let listFailed = "\(listColumns) WHERE outcome = 'failed' ORDER BY started_at DESC, rowid DESC LIMIT 20"

    /// `list --since … --until …`, with the bounds in milliseconds.
    static func listRange(since: Int64, until: Int64) -> String {
        "\(listColumns) WHERE started_at >= \(since) AND started_at < \(until) ORDER BY started_at DESC, rowid DESC LIMIT 20"
    }

    /// A text no fetch contains: `list --grep` reads every row for it.
    static let absentText = "zq-absent-text"

    /// `list --grep absentText`: the text searched for in each fetch's
    /// error, source and value, ignoring case, as fetch-history does.
    static let listGrep = """
        \(listColumns) WHERE instr(lower(error), '\(absentText)') OR instr(lower(source), '\(absentText)') \
        OR instr(lower(value), '\(absentText)') ORDER BY started_at DESC, rowid DESC LIMIT 20
        """

    /// `fetch`, once: a session and its fetch begun in one transaction,
    /// the fetch ended in a second, as the recorder writes them.
    static func recordOne(at milliseconds: Int64) -> String {
        let session = UUID().uuidString.lowercased(), fetch = UUID().uuidString.lowercased()
        return """
            BEGIN IMMEDIATE;
            INSERT INTO session (id, started_at, source, host, process_id) VALUES ('\(session)', \(milliseconds), 'random', 'bench', 1);
            INSERT INTO fetch (id, session_id, source, started_at, host) VALUES ('\(fetch)', '\(session)', 'random', \(milliseconds), 'bench');
            COMMIT;
            BEGIN IMMEDIATE;
            UPDATE fetch SET ended_at = \(milliseconds + 1), duration_ms = 1, outcome = 'succeeded', value = 42 WHERE id = '\(fetch)';
            COMMIT;
            """
    }

    /// `prune --keep N`: the fetches older than the newest `keep` deleted
    /// with the indexes dropped and built again (as prune does when it
    /// deletes most of them), the sessions left empty, then VACUUM.
    static func prune(keeping keep: Int, indexes: [(name: String, sql: String)]) -> String {
        var lines = ["PRAGMA cache_size = -262144;", "BEGIN IMMEDIATE;"]
        lines += indexes.map { "DROP INDEX \($0.name);" }
        lines.append("""
            DELETE FROM fetch WHERE (started_at, seq) < \
            (SELECT started_at, seq FROM fetch ORDER BY started_at DESC, seq DESC LIMIT 1 OFFSET \(keep - 1));
            """)
        lines += indexes.map { $0.sql + ";" }
        lines.append("DELETE FROM session WHERE NOT EXISTS (SELECT 1 FROM fetch WHERE fetch.session_id = session.id);")
        lines += ["COMMIT;", "VACUUM;", "PRAGMA wal_checkpoint(TRUNCATE);"]
        return lines.joined(separator: "\n")
    }

    /// `stats`: counts per outcome, then nearest-rank p50/p90/p99 and the
    /// maximum of succeeded fetches' durations in one sorted pass.
    static let stats = """
        SELECT coalesce(outcome, 'running'), count(*) FROM fetch GROUP BY 1;
        SELECT
            max(CASE WHEN rank = (50 * total + 99) / 100 THEN duration_ms END),
            max(CASE WHEN rank = (90 * total + 99) / 100 THEN duration_ms END),
            max(CASE WHEN rank = (99 * total + 99) / 100 THEN duration_ms END),
            max(duration_ms)
        FROM (
            SELECT duration_ms, row_number() OVER (ORDER BY duration_ms) AS rank, count(*) OVER () AS total
            FROM fetch WHERE outcome = 'succeeded'
        );
        """

    /// `stats -d URL`: what fetch-history asks the server, typed into psql:
    /// counts per outcome, nearest-rank p50/p90/p99 and the maximum, the histogram.
    static let serverStats = [
        "SELECT outcome, count(*) FROM fetch_history.fetch GROUP BY 1",
        """
        SELECT duration_ms, rank FROM (SELECT duration_ms, row_number() OVER (ORDER BY duration_ms) AS rank \
        FROM fetch_history.fetch WHERE outcome = 'succeeded') ranked \
        WHERE rank IN ((SELECT (50 * count(*) + 99) / 100 FROM fetch_history.fetch WHERE outcome = 'succeeded'), \
        (SELECT (90 * count(*) + 99) / 100 FROM fetch_history.fetch WHERE outcome = 'succeeded'), \
        (SELECT (99 * count(*) + 99) / 100 FROM fetch_history.fetch WHERE outcome = 'succeeded'), \
        (SELECT count(*) FROM fetch_history.fetch WHERE outcome = 'succeeded'))
        """,
        """
        SELECT width_bucket(duration_ms, ARRAY[0,10,25,50,100,250,500,1000,2500,5000,10000,30000,60000]::bigint[]), count(*) \
        FROM fetch_history.fetch WHERE outcome = 'succeeded' GROUP BY 1
        """,
    ]

    /// `list -d URL`: the newest 20, every column the table shows.
    static let serverNewest = """
        SELECT id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value::text, error, \
        http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value::text, answer_error, host \
        FROM fetch_history.fetch ORDER BY started_at DESC, seq DESC LIMIT 20
        """
}
