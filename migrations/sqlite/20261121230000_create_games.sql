-- SQLite twin of ../20261121230000_create_games.sql (same logical model; STRICT types).
CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    log_sha256      TEXT NOT NULL UNIQUE
                    CHECK (length(log_sha256) = 64 AND log_sha256 NOT GLOB '*[^0-9a-f]*'),
    format          TEXT,
    engine_version  TEXT NOT NULL,
    player_count    INTEGER CHECK (player_count BETWEEN 1 AND 7),
    furnishing_set  TEXT CHECK (furnishing_set IN ('full', 'introductory')),
    status          TEXT NOT NULL CHECK (status IN ('complete', 'incomplete', 'invalid')),
    round_reached   INTEGER NOT NULL CHECK (round_reached >= 0),
    entries_applied INTEGER NOT NULL CHECK (entries_applied >= 0),
    error_entry     INTEGER,
    error_player    INTEGER,
    error_code      TEXT,
    error_message   TEXT,
    meta_id         TEXT,
    tournament      TEXT,
    played_at       TEXT,
    uploaded_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    uploader        TEXT,
    CHECK ((status = 'invalid') = (error_code IS NOT NULL)),
    CHECK (error_code IS NOT NULL OR (error_entry IS NULL AND error_player IS NULL AND error_message IS NULL))
) STRICT;

CREATE INDEX games_status ON games (status);
