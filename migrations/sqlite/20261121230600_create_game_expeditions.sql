-- SQLite twin of ../20261121230600_create_game_expeditions.sql.
CREATE TABLE game_expeditions (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    player   INTEGER NOT NULL CHECK (player >= 0),
    dwarf    INTEGER NOT NULL CHECK (dwarf >= 0),
    round    INTEGER NOT NULL,
    level    INTEGER NOT NULL CHECK (level >= 0),
    strength INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT;
