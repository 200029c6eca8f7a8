-- Fact: every furnishing tile built (the engine's `Furnished` events, in order): with an action
-- space (`via` = 'space', `space` set) or as expedition loot (`via` = 'loot').
CREATE TABLE game_furnishings (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    player   SMALLINT NOT NULL CHECK (player >= 0),
    round    SMALLINT NOT NULL,
    tile     TEXT NOT NULL,
    cell_row SMALLINT NOT NULL,
    cell_col SMALLINT NOT NULL,
    via      TEXT NOT NULL CHECK (via IN ('space', 'loot')),
    space    TEXT,
    PRIMARY KEY (game_id, seq),
    CHECK ((via = 'space') = (space IS NOT NULL))
);

CREATE INDEX game_furnishings_tile ON game_furnishings (tile);
