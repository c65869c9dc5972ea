-- A fetch's `seq` is never given again, even when the fetch that had the
-- largest one is deleted.
--
-- `seq` is an INTEGER PRIMARY KEY without AUTOINCREMENT, so SQLite gives a
-- new row the largest `seq` in the table plus one: after `delete` or `prune`
-- removed the newest fetch, the next one got its number again, and
-- `list --follow`, which asks for the fetches above the largest `seq` it has
-- seen, never printed it. AUTOINCREMENT would rebuild the table and write
-- `sqlite_sequence` with every row recorded or imported; this keeps the
-- largest `seq` only when a deletion takes it away, and recording and import
-- number their rows above it.
CREATE TABLE fetch_seq_high_water (
    only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
    seq      INTEGER NOT NULL
) STRICT;
