-- The script of each fetch: what the user and the source did, recorded apart
-- from the outcome columns so `replay` can re-drive the session through the
-- view state and check that it reproduces the outcome. Rows recorded before
-- this migration have no script (tapped_at NULL) and cannot be replayed.

-- When fetch was tapped (ms since 1970, on the recording clock).
ALTER TABLE fetch ADD COLUMN tapped_at INTEGER;
-- The view state's timeout for this fetch, in ms; NULL when it had none.
ALTER TABLE fetch ADD COLUMN timeout_ms INTEGER;
-- What ended the fetch: the source's answer or failure, a cancel tap, a newer
-- fetch tap, or the timeout; and when. NULL while running or interrupted.
ALTER TABLE fetch ADD COLUMN ended_by TEXT CHECK (ended_by IN ('answer', 'failure', 'cancel', 'fetch', 'timeout'));
ALTER TABLE fetch ADD COLUMN ended_by_at INTEGER;
-- What the source answered: a number, or the message of its failure.
ALTER TABLE fetch ADD COLUMN answer_value INTEGER;
ALTER TABLE fetch ADD COLUMN answer_error TEXT;
