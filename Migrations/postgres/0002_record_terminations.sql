-- A fetch cancelled because its program was told to stop (SIGTERM) has the
-- cancel reason `terminated` (the file's schema 10). The CHECK that lists
-- the reasons gains it; every row already there passes the new one, which
-- VALIDATE proves without holding writers off while it reads the table.
ALTER TABLE fetch_history.fetch DROP CONSTRAINT fetch_cancel_reason_check;
ALTER TABLE fetch_history.fetch ADD CONSTRAINT fetch_cancel_reason_check
    CHECK (cancel_reason IN ('user', 'superseded', 'terminated')) NOT VALID;
ALTER TABLE fetch_history.fetch VALIDATE CONSTRAINT fetch_cancel_reason_check;
