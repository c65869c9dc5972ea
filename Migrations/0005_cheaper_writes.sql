-- The same history, cheaper to write. Every column, value and order is kept;
-- what changes is what each written row costs SQLite.
--
-- * `seq`, an explicit INTEGER PRIMARY KEY, is the rowid the table always
--   had, now a column of its own: "The VACUUM command may change the ROWIDs
--   of entries in any tables that do not have an explicit INTEGER PRIMARY
--   KEY" (sqlite.org/lang_vacuum.html), and fetches started in one
--   millisecond are listed in `seq` order, the order they were written. An
--   import also numbers the rows it adds itself, instead of relying on how
--   SQLite usually picks a new rowid.
-- * The CHECKs compare with `=` instead of `IN (…)`: the same values are
--   allowed, but an `IN` list is evaluated through a temporary table opened
--   and freed for every row written (about half of SQLite's instructions
--   per imported row, measured), and `=` chains are plain comparisons. A
--   NULL passes both forms, as before.
-- * `value` and `answer_value` hold any fetched value, losslessly: an
--   integer as an SQLite integer (so filters, statistics and scripts that
--   read numbers work as before), anything else as its compact JSON text
--   (a string, an object, an array). In a STRICT table an ANY column keeps
--   each value as the type it was written with, with no conversion (text
--   that looks like a number stays text; sqlite.org/stricttables.html),
--   and the CHECKs refuse anything else: a real, a blob, text that is not
--   JSON.
-- * `fetch_running` is gone: `fetch_by_outcome` finds the running fetches
--   (`outcome IS NULL`) as well, and one B-tree fewer is updated for every
--   fetch recorded.
--
-- Changing a column's constraints takes a new table: "create new table,
-- copy data, drop old table, rename new into old"
-- (sqlite.org/lang_altertable.html#otheralter). The indexes are created
-- after the copy, which builds each in one sorted pass.

CREATE TABLE fetch_v5 (
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
    cancel_reason TEXT    CHECK (cancel_reason = 'user' OR cancel_reason = 'superseded'),
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
    CHECK ((outcome = 'succeeded') = (value IS NOT NULL)),
    CHECK ((outcome = 'cancelled') = (cancel_reason IS NOT NULL)),
    CHECK ((ended_at IS NULL) = (duration_ms IS NULL))
) STRICT;

INSERT INTO fetch_v5 (
    seq, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
    http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error
)
SELECT
    rowid, id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
    http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error
FROM fetch ORDER BY rowid;

DROP TABLE fetch;
ALTER TABLE fetch_v5 RENAME TO fetch;

-- Newest-first listing and time ranges.
CREATE INDEX fetch_by_start ON fetch (started_at);
-- `--outcome` (and stats per outcome) within a time range; also the running
-- fetches (outcome NULL), to tell interrupted ones.
CREATE INDEX fetch_by_outcome ON fetch (outcome, started_at);
-- `--source` within a time range.
CREATE INDEX fetch_by_source ON fetch (source, started_at);
-- `--session`, and the fetches of one session in order.
CREATE INDEX fetch_by_session ON fetch (session_id, started_at);
-- Latency percentiles, as in 0004: the durations of succeeded fetches,
-- sorted, covering `stats`'s filters (SQLite 3.40 still reads the outcome
-- column even when the index's own WHERE implies it).
CREATE INDEX fetch_succeeded_by_duration ON fetch (duration_ms, started_at, source, outcome) WHERE outcome = 'succeeded';
