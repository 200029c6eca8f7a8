-- SQLite twin of ../20261130090200_create_stat_state.sql.
CREATE TABLE stat_state (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT;
