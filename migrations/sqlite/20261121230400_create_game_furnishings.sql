-- SQLite twin of ../20261121230400_create_game_furnishings.sql.
CREATE TABLE game_furnishings (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    player   INTEGER NOT NULL CHECK (player >= 0),
    round    INTEGER NOT NULL,
    tile     TEXT NOT NULL,
    cell_row INTEGER NOT NULL,
    cell_col INTEGER NOT NULL,
    via      TEXT NOT NULL CHECK (via IN ('space', 'loot')),
    space    TEXT,
    PRIMARY KEY (game_id, seq),
    CHECK ((via = 'space') = (space IS NOT NULL))
) STRICT;

CREATE INDEX game_furnishings_tile ON game_furnishings (tile);
