-- SQLite twin of ../20261130090000_create_stat_tallies.sql.
CREATE TABLE stat_tallies (
    bucket  TEXT PRIMARY KEY,
    tally   TEXT NOT NULL,
    version INTEGER NOT NULL
) STRICT;
