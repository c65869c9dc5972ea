-- Latency percentiles read the durations of succeeded fetches in order.
-- This partial index holds exactly those, sorted, and covers `stats`'s
-- filters (time range, source) so it never touches the table: `stats` walks
-- it once instead of sorting a million rows. (SQLite 3.40 still reads the
-- outcome column even when the index's own WHERE implies it, so the outcome
-- is a column here too.)
CREATE INDEX fetch_succeeded_by_duration ON fetch (duration_ms, started_at, source, outcome) WHERE outcome = 'succeeded';
