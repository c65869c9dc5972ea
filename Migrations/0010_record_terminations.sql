-- A fetch cancelled because its program was told to stop (SIGTERM: a
-- shutdown, `systemctl stop`, a CI job's time limit) is recorded with the
-- cancel reason `terminated`, no longer as cancelled by the user: a probe
-- stopped by its service manager did not have a user press anything.
--
-- `cancel_reason`'s CHECK gains the value, which takes a new table, as in
-- schema 5: "create new table, copy data, drop old table, rename new into
-- old" (sqlite.org/lang_altertable.html#otheralter). Every column, value
-- and `seq` is copied as it is; the indexes are created after the copy,
-- each in one sorted pass. `host` keeps its place, last, where schema 8's
-- ALTER TABLE put it.

CREATE TABLE fetch_v10 (
    -- The order rows were written in: recording order, then import order.
    seq           INTEGER PRIMARY KEY,
    id            TEXT    NOT NULL UNIQUE,
    session_id    TEXT    NOT NULL REFERENCES session (id),
    source        TEXT    NOT NULL,
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    duration_ms   INTEGER,
    outcome       TEXT    CHECK (outcome = 'succeeded' OR outcome = 'failed' OR outcome = 'cancelled'
                                 OR outcome = 'timed-out' OR outcome = 'interrupted'),
    cancel_reason TEXT    CHECK (cancel_reason = 'user' OR cancel_reason = 'superseded' OR cancel_reason = 'terminated'),
    value         ANY     CHECK (value IS NULL OR typeof(value) = 'integer'
                                 OR (typeof(value) = 'text' AND json_valid(value))),
    error         TEXT,
    http_status   INTEGER,
    response_bytes INTEGER,
    tapped_at     INTEGER,
    timeout_ms    INTEGER,
    ended_by      TEXT    CHECK (ended_by = 'answer' OR ended_by = 'failure' OR ended_by = 'cancel'
                                 OR ended_by = 'fetch' OR ended_by = 'timeout'),
    ended_by_at   INTEGER,
    answer_value  ANY     CHECK (answer_value IS NULL OR typeof(answer_value) = 'integer'
                                 OR (typeof(answer_value) = 'text' AND json_valid(answer_value))),
    answer_error  TEXT,
    -- The host that recorded the fetch (schema 8).
    host          TEXT    NOT NULL DEFAULT '',
    CHECK ((outcome = 'succeeded') = (value IS NOT NULL)),
    CHECK ((outcome = 'cancelled') = (cancel_reason IS NOT NULL)),
    CHECK ((ended_at IS NULL) = (duration_ms IS NULL))
) STRICT;

INSERT INTO fetch_v10 (
    seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
    http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error, host
)
SELECT
    seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
    http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error, host
FROM fetch ORDER BY seq;

DROP TABLE fetch;
ALTER TABLE fetch_v10 RENAME TO fetch;

CREATE INDEX fetch_by_start ON fetch (started_at);
CREATE INDEX fetch_by_outcome ON fetch (outcome, started_at);
CREATE INDEX fetch_by_source ON fetch (source, started_at);
CREATE INDEX fetch_by_session ON fetch (session_id, started_at);
CREATE INDEX fetch_succeeded_by_duration ON fetch (duration_ms, started_at, source, outcome) WHERE outcome = 'succeeded';
