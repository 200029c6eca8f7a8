-- SQLite twin of ../20261203090100_create_game_analyses_queue_index.sql.
CREATE INDEX game_analyses_queue ON game_analyses (state, requested_at);
