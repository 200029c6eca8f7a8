-- SQLite twin of ../20261201090000_create_stat_player_games.sql.
CREATE TABLE stat_player_games (
    player_key TEXT NOT NULL,
    game_id    INTEGER NOT NULL
) STRICT;
