-- The analyses' queue: the oldest queued or stale running analysis is found by its state and
-- request time (docs/analysis.md, "On the server").
CREATE INDEX game_analyses_queue ON game_analyses (state, requested_at);
