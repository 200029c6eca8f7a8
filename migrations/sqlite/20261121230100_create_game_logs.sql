-- SQLite twin of ../20261121230100_create_game_logs.sql.
CREATE TABLE game_logs (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    encoding TEXT NOT NULL CHECK (encoding IN ('gzip')),
    size     INTEGER NOT NULL CHECK (size >= 0),
    data     BLOB NOT NULL
) STRICT;
