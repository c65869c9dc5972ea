-- What a server answered when a fetch failed on its answer (a status outside
-- 2xx, a body that is no value): the start of the body (1 KiB unless
-- `fetch --keep-body` says otherwise, never more than 64 KiB), secrets
-- hidden, its Content-Type, and whether the body went on past what was kept
-- (1) or not (0). All NULL for an answer that succeeded, for sources that
-- are not HTTP, with `--keep-body 0`, and for fetches recorded before this
-- migration. Added columns: every row is kept as it is, no copy.
ALTER TABLE fetch ADD COLUMN response_body TEXT;
ALTER TABLE fetch ADD COLUMN response_content_type TEXT;
ALTER TABLE fetch ADD COLUMN response_body_truncated INTEGER
    CHECK (response_body_truncated = 0 OR response_body_truncated = 1);
