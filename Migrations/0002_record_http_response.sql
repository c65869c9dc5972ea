-- What an HTTP source answered, besides the number: the status code and the
-- size of the body in bytes. NULL for sources that are not HTTP, and for
-- fetches recorded before this migration.
ALTER TABLE fetch ADD COLUMN http_status INTEGER;
ALTER TABLE fetch ADD COLUMN response_bytes INTEGER;
