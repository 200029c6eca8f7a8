-- SQLite twin of ../20261130090100_create_stat_counted.sql.
CREATE TABLE stat_counted (
    game_id INTEGER PRIMARY KEY
) STRICT;
