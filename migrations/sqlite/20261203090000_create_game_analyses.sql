-- SQLite twin of ../20261203090000_create_game_analyses.sql.
CREATE TABLE game_analyses (
    game_id        INTEGER NOT NULL,
    engine_version TEXT NOT NULL,
    budget         INTEGER NOT NULL,
    seed           INTEGER NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    done_moves     INTEGER NOT NULL DEFAULT 0,
    total_moves    INTEGER NOT NULL DEFAULT 0,
    result         TEXT,
    message        TEXT,
    requested_at   INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    PRIMARY KEY (game_id, engine_version, budget, seed)
) STRICT;
