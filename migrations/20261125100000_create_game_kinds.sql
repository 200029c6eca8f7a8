-- The games a store accepts and the bounds of their player counts. `games.game` must name one
-- of them and `games.player_count` must fall within its bounds (trigger in
-- 20261125100300_create_games_game_check.sql). Seeded with the games Chronicle knows; when a
-- store opens it adds the games of its build that are missing (the build's list, `GameKind` in
-- engine/core, is the source of truth), so a new game needs no migration of this table.
CREATE TABLE game_kinds (
    id          TEXT PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9-]*$'),
    format      TEXT NOT NULL UNIQUE,
    min_players SMALLINT NOT NULL CHECK (min_players >= 1),
    max_players SMALLINT NOT NULL,
    CHECK (min_players <= max_players)
);

INSERT INTO game_kinds (id, format, min_players, max_players) VALUES
    ('caverna', 'caverna-log/1', 1, 7),
    ('village', 'village-log/1', 1, 5),
    ('above-and-below', 'above-and-below-log/1', 2, 4);
