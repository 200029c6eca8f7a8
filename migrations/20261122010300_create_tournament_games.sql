-- The games an organizer added to a tournament (a game may belong to several tournaments).
CREATE TABLE tournament_games (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    game_id       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    added_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, game_id)
);

CREATE INDEX tournament_games_game ON tournament_games (game_id);
