-- SQLite twin of ../20261126010000_create_game_player_counts.sql (a plain foreign key, as the
-- other fact tables here).
CREATE TABLE game_player_counts (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    counter TEXT NOT NULL,
    value   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, counter)
) STRICT;
