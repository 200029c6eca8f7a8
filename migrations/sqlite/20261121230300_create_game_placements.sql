-- SQLite twin of ../20261121230300_create_game_placements.sql.
CREATE TABLE game_placements (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    player   INTEGER NOT NULL CHECK (player >= 0),
    round    INTEGER NOT NULL,
    space    TEXT NOT NULL,
    dwarf    INTEGER NOT NULL CHECK (dwarf >= 0),
    imitated TEXT,
    PRIMARY KEY (game_id, seq)
) STRICT;
