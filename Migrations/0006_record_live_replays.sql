-- Which sessions are `replay --live` re-runs, and of which session. A live
-- re-run is recorded like any session (its fetches are real), so without
-- this mark `replay --live` with no id would next pick the re-run itself as
-- the newest session, instead of the session the user recorded.
--
-- A table of its own rather than a column of `session`: the sessions every
-- other command reads stay as they are, and deleting a session deletes its
-- mark with it (ON DELETE CASCADE; the tool runs with foreign keys on).
-- `replay_of` is not a foreign key: the mark stays true of the re-run when
-- the session it re-ran is deleted.
CREATE TABLE live_replay (
    session_id TEXT NOT NULL PRIMARY KEY REFERENCES session (id) ON DELETE CASCADE,
    replay_of  TEXT NOT NULL
) STRICT;
