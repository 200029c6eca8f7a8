-- One row per distinct game log. The dedupe key is the SHA-256 of the canonical log (see
-- migrations/README.md); the verdict columns are the engine's replay result and are rewritten
-- by `chronicle reverify`.
CREATE TABLE games (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    log_sha256      TEXT NOT NULL UNIQUE CHECK (log_sha256 ~ '^[0-9a-f]{64}$'),
    format          TEXT,
    engine_version  TEXT NOT NULL,
    player_count    SMALLINT CHECK (player_count BETWEEN 1 AND 7),
    furnishing_set  TEXT CHECK (furnishing_set IN ('full', 'introductory')),
    status          TEXT NOT NULL CHECK (status IN ('complete', 'incomplete', 'invalid')),
    round_reached   SMALLINT NOT NULL CHECK (round_reached >= 0),
    entries_applied INTEGER NOT NULL CHECK (entries_applied >= 0),
    error_entry     INTEGER,
    error_player    BIGINT,
    error_code      TEXT,
    error_message   TEXT,
    meta_id         TEXT,
    tournament      TEXT,
    played_at       TEXT,
    uploaded_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    uploader        TEXT,
    CHECK ((status = 'invalid') = (error_code IS NOT NULL)),
    CHECK (error_code IS NOT NULL OR (error_entry IS NULL AND error_player IS NULL AND error_message IS NULL))
);

CREATE INDEX games_status ON games (status);
