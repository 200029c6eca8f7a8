-- Analyses of stored games by a game's search bot (docs/analysis.md, "On the server"): one row
-- per game, engine version, budget (playouts per decision) and seed — the same four give the
-- same analysis. `state` is queued, running, done or failed; `done_moves` of `total_moves`
-- decisions are analysed (the page's progress); `result` is the analysis as JSON once done,
-- `message` why it failed. `updated_at` (Unix seconds) is a running analysis's heartbeat: a
-- row running without one for a while is taken again by another worker (its process stopped).
CREATE TABLE game_analyses (
    game_id        BIGINT NOT NULL,
    engine_version TEXT NOT NULL,
    budget         BIGINT NOT NULL,
    seed           BIGINT NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    done_moves     BIGINT NOT NULL DEFAULT 0,
    total_moves    BIGINT NOT NULL DEFAULT 0,
    result         TEXT,
    message        TEXT,
    requested_at   BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    PRIMARY KEY (game_id, engine_version, budget, seed)
);
