-- A team's history on PostgreSQL: every fetch pushed from any host, once
-- each, in a schema of its own so that it shares a database with anything.
--
-- The columns are the SQLite file's (Migrations/0001…0008), with the
-- types PostgreSQL has for them: ids are uuid, times integer milliseconds
-- since 1970 (as the file keeps them: no time zone to convert, no
-- rounding), values the exact JSON text they were recorded as. A fetch
-- reaches the server once it has ended, so `outcome` is never NULL: a
-- fetch whose recorder died is pushed as interrupted.
--
-- The server, not the client, says who pushed a row and when
-- (`pushed_by`, `pushed_at`): the trigger below overwrites whatever an
-- INSERT gives them. `pushed_xid` is the transaction that wrote the row,
-- what a follower (`list --follow`) compares with the snapshot it last
-- read to find the rows committed since, whatever order transactions
-- committed in.
CREATE SCHEMA fetch_history;

CREATE TABLE fetch_history.session (
    id              uuid        PRIMARY KEY,
    started_at      bigint      NOT NULL,
    source          text        NOT NULL,
    host            text        NOT NULL,
    process_id      integer     NOT NULL,
    boot_id         text,
    process_started bigint,
    pushed_by       name        NOT NULL DEFAULT session_user,
    pushed_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE fetch_history.fetch (
    seq            bigint      GENERATED ALWAYS AS IDENTITY,
    id             uuid        PRIMARY KEY,
    session_id     uuid        NOT NULL REFERENCES fetch_history.session (id),
    source         text        NOT NULL,
    started_at     bigint      NOT NULL,
    ended_at       bigint,
    duration_ms    bigint,
    outcome        text        NOT NULL CHECK (outcome IN ('succeeded', 'failed', 'cancelled', 'timed-out', 'interrupted')),
    cancel_reason  text        CHECK (cancel_reason IN ('user', 'superseded')),
    value          json,
    error          text,
    http_status    integer,
    response_bytes bigint,
    tapped_at      bigint,
    timeout_ms     bigint,
    ended_by       text        CHECK (ended_by IN ('answer', 'failure', 'cancel', 'fetch', 'timeout')),
    ended_by_at    bigint,
    answer_value   json,
    answer_error   text,
    host           text        NOT NULL,
    pushed_by      name        NOT NULL DEFAULT session_user,
    pushed_at      timestamptz NOT NULL DEFAULT now(),
    pushed_xid     xid8        NOT NULL DEFAULT pg_current_xact_id(),
    CHECK ((outcome = 'succeeded') = (value IS NOT NULL)),
    CHECK ((outcome = 'cancelled') = (cancel_reason IS NOT NULL)),
    CHECK ((ended_at IS NULL) = (duration_ms IS NULL))
);

-- The orders and filters of the reading commands, as the file's indexes.
CREATE INDEX fetch_by_start ON fetch_history.fetch (started_at, seq);
CREATE INDEX fetch_by_outcome ON fetch_history.fetch (outcome, started_at);
CREATE INDEX fetch_by_source ON fetch_history.fetch (source, started_at);
CREATE INDEX fetch_by_session ON fetch_history.fetch (session_id, started_at);
CREATE INDEX fetch_by_host ON fetch_history.fetch (host, started_at);
CREATE INDEX fetch_succeeded_by_duration ON fetch_history.fetch (duration_ms) WHERE outcome = 'succeeded';
CREATE INDEX fetch_by_arrival ON fetch_history.fetch (pushed_xid);

-- Who pushed a row is the role the server authenticated (session_user,
-- which SET ROLE does not change), never what the INSERT said.
CREATE FUNCTION fetch_history.stamp_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.pushed_by := session_user;
    NEW.pushed_at := now();
    RETURN NEW;
END
$$;
CREATE TRIGGER stamp BEFORE INSERT ON fetch_history.session
    FOR EACH ROW EXECUTE FUNCTION fetch_history.stamp_session();

CREATE FUNCTION fetch_history.stamp_fetch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.pushed_by := session_user;
    NEW.pushed_at := now();
    NEW.pushed_xid := pg_current_xact_id();
    RETURN NEW;
END
$$;
CREATE TRIGGER stamp BEFORE INSERT ON fetch_history.fetch
    FOR EACH ROW EXECUTE FUNCTION fetch_history.stamp_fetch();

-- Every statement that adds fetches wakes the followers (`LISTEN
-- fetch_history`) when it commits; they read what is new themselves.
CREATE FUNCTION fetch_history.announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fetch_history', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER announce AFTER INSERT ON fetch_history.fetch
    FOR EACH STATEMENT EXECUTE FUNCTION fetch_history.announce();

-- Which of these files have run (the migrator adds a row per file), and the
-- history's own id: a local file remembers how far it has pushed to each
-- history by this id, so a server whose database was made anew is pushed
-- to in full again.
CREATE TABLE fetch_history.migration (
    version    integer     PRIMARY KEY,
    name       text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE fetch_history.identity (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    id       uuid    NOT NULL DEFAULT gen_random_uuid()
);
INSERT INTO fetch_history.identity DEFAULT VALUES;
