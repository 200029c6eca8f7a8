-- The raw log as uploaded, compressed, one row per game (kept apart from `games` so that scans
-- of the verdicts never read log bytes).
CREATE TABLE game_logs (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    encoding TEXT NOT NULL CHECK (encoding IN ('gzip')),
    size     BIGINT NOT NULL CHECK (size >= 0),
    data     BYTEA NOT NULL
);
