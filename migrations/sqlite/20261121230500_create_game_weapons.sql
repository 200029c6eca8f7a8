-- SQLite twin of ../20261121230500_create_game_weapons.sql.
CREATE TABLE game_weapons (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player          INTEGER NOT NULL CHECK (player >= 0),
    dwarf           INTEGER NOT NULL CHECK (dwarf >= 0),
    round_forged    INTEGER,
    strength_forged INTEGER,
    final_strength  INTEGER,
    expeditions     INTEGER NOT NULL CHECK (expeditions >= 0),
    PRIMARY KEY (game_id, player, dwarf),
    CHECK ((round_forged IS NULL) = (strength_forged IS NULL))
) STRICT;
