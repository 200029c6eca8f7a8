-- SQLite twin of ../20261122010300_create_tournament_games.sql.
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    added_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, game_id)
) STRICT;

CREATE INDEX tournament_games_game ON tournament_games (game_id);
