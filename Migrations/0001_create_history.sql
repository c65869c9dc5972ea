-- The history of fetch-history. Times are INTEGER milliseconds since
-- 1970-01-01 UTC; ids are lower-case UUID strings so histories from several
-- machines can be merged.

-- 'FHst': lets the tool tell its own files from other applications' databases.
PRAGMA application_id = 1179153268;

-- One run of the view state: a CLI invocation or a screen's lifetime.
CREATE TABLE session (
    id              TEXT    NOT NULL PRIMARY KEY,
    started_at      INTEGER NOT NULL,
    source          TEXT    NOT NULL,
    host            TEXT    NOT NULL,
    process_id      INTEGER NOT NULL,
    -- A process id names a live process only within one boot, and only while
    -- the process that had it at start-up is still the one holding it: the
    -- boot id and the process start time (clock ticks since boot) tell a dead
    -- recorder from a new process that reused its id.
    boot_id         TEXT,
    process_started INTEGER
) STRICT;

CREATE INDEX session_by_start ON session (started_at);

-- One fetch. A row is inserted when the fetch starts (outcome NULL: running)
-- and completed when it ends. A running fetch whose process is gone is shown
-- as 'interrupted' when read; imported histories may store 'interrupted'.
CREATE TABLE fetch (
    id            TEXT    NOT NULL PRIMARY KEY,
    session_id    TEXT    NOT NULL REFERENCES session (id),
    source        TEXT    NOT NULL,
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    duration_ms   INTEGER,
    outcome       TEXT    CHECK (outcome IN ('succeeded', 'failed', 'cancelled', 'timed-out', 'interrupted')),
    cancel_reason TEXT    CHECK (cancel_reason IN ('user', 'superseded')),
    value         INTEGER,
    error         TEXT,
    CHECK ((outcome = 'succeeded') = (value IS NOT NULL)),
    CHECK ((outcome = 'cancelled') = (cancel_reason IS NOT NULL)),
    CHECK ((ended_at IS NULL) = (duration_ms IS NULL))
) STRICT;

-- Newest-first listing and time ranges.
CREATE INDEX fetch_by_start ON fetch (started_at);
-- `--outcome` (and stats per outcome) within a time range.
CREATE INDEX fetch_by_outcome ON fetch (outcome, started_at);
-- `--source` within a time range.
CREATE INDEX fetch_by_source ON fetch (source, started_at);
-- `--session`, and the fetches of one session in order.
CREATE INDEX fetch_by_session ON fetch (session_id, started_at);
-- Finding running fetches (to tell interrupted ones) without a scan.
CREATE INDEX fetch_running ON fetch (session_id) WHERE outcome IS NULL;
