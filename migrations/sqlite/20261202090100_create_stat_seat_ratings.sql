-- SQLite twin of ../20261202090100_create_stat_seat_ratings.sql.
CREATE TABLE stat_seat_ratings (
    game_id      INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    game         TEXT NOT NULL,
    player       TEXT NOT NULL,
    ord          INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
) STRICT;
