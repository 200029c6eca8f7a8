-- SQLite twin of ../20261129210100_create_game_facts.sql.
CREATE TABLE game_facts (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    facts   TEXT NOT NULL
) STRICT;
