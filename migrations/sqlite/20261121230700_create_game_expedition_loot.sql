-- SQLite twin of ../20261121230700_create_game_expedition_loot.sql.
CREATE TABLE game_expedition_loot (
    game_id    INTEGER NOT NULL,
    expedition INTEGER NOT NULL,
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    item       TEXT NOT NULL,
    PRIMARY KEY (game_id, expedition, idx),
    FOREIGN KEY (game_id, expedition) REFERENCES game_expeditions (game_id, seq) ON DELETE CASCADE
) STRICT;
