-- How far this file has pushed to each team history (`push`), by the team
-- history's own id: every fetch whose `seq` is at most `seq` has reached
-- it, so the next push starts above it and a push with nothing new sends
-- nothing. A fetch still running holds the mark below it until it ends and
-- is pushed; a push cut off halfway leaves the mark at the last batch the
-- server committed, and the next sends the rest (the server skips what it
-- has).
CREATE TABLE push_mark (
    history_id TEXT    NOT NULL PRIMARY KEY,
    seq        INTEGER NOT NULL
) STRICT;
