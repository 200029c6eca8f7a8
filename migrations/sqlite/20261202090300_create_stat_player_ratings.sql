-- SQLite twin of ../20261202090300_create_stat_player_ratings.sql.
CREATE TABLE stat_player_ratings (
    game   TEXT NOT NULL,
    place  INTEGER NOT NULL,
    player TEXT NOT NULL,
    name   TEXT NOT NULL,
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL,
    games  INTEGER NOT NULL,
    PRIMARY KEY (game, place)
) STRICT;
