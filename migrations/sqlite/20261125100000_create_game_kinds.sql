-- SQLite twin of ../20261125100000_create_game_kinds.sql.
CREATE TABLE game_kinds (
    id          TEXT PRIMARY KEY CHECK (length(id) > 0 AND id NOT GLOB '*[^a-z0-9-]*'),
    format      TEXT NOT NULL UNIQUE,
    min_players INTEGER NOT NULL CHECK (min_players >= 1),
    max_players INTEGER NOT NULL,
    CHECK (min_players <= max_players)
) STRICT;

INSERT INTO game_kinds (id, format, min_players, max_players) VALUES
    ('caverna', 'caverna-log/1', 1, 7),
    ('village', 'village-log/1', 1, 5),
    ('above-and-below', 'above-and-below-log/1', 2, 4);
