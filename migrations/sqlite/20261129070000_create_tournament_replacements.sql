-- SQLite twin of ../20261129070000_create_tournament_replacements.sql.
CREATE TABLE tournament_replacements (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    old_game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    new_game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    replaced_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, old_game_id)
) STRICT;
