-- SQLite twin of ../20261125100600_create_game_score_rows.sql (a plain foreign key, as the other
-- fact tables here).
CREATE TABLE game_score_rows (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    position INTEGER NOT NULL CHECK (position >= 0),
    row_id   TEXT NOT NULL,
    points   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, position)
) STRICT;
