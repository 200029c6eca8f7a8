-- SQLite twin of ../20261202090000_create_stat_models.sql.
CREATE TABLE stat_models (
    game    TEXT PRIMARY KEY,
    format  INTEGER NOT NULL,
    corpus  INTEGER NOT NULL,
    aliases TEXT NOT NULL,
    games   INTEGER NOT NULL,
    effects TEXT
) STRICT;
