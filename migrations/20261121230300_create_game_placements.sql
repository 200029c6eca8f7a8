-- Fact: every action-space use (the engine's `Placed` events, in order). `space` is the space
-- the dwarf stands on; `imitated` the space copied through an Imitation space.
CREATE TABLE game_placements (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    player   SMALLINT NOT NULL CHECK (player >= 0),
    round    SMALLINT NOT NULL,
    space    TEXT NOT NULL,
    dwarf    SMALLINT NOT NULL CHECK (dwarf >= 0),
    imitated TEXT,
    PRIMARY KEY (game_id, seq)
);
