-- The start of a failed answer's body, its Content-Type, and whether the
-- body went on past what was kept (the file's schema 11). Added columns,
-- NULL in every row already there: nothing is rewritten.
ALTER TABLE fetch_history.fetch ADD COLUMN response_body text;
ALTER TABLE fetch_history.fetch ADD COLUMN response_content_type text;
ALTER TABLE fetch_history.fetch ADD COLUMN response_body_truncated boolean;
