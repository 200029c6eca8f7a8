-- Games an organizer replaced in a tournament by a corrected upload: the replaced game is no
-- longer offered to the tournament among the stored games that name it.
CREATE TABLE tournament_replacements (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    old_game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    new_game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    replaced_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, old_game_id)
);
