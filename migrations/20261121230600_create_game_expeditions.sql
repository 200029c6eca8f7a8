-- Fact: every expedition (the engine's `Expedition` events, in order): level and the weapon
-- strength the engine recorded for it.
CREATE TABLE game_expeditions (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    player   SMALLINT NOT NULL CHECK (player >= 0),
    dwarf    SMALLINT NOT NULL CHECK (dwarf >= 0),
    round    SMALLINT NOT NULL,
    level    SMALLINT NOT NULL CHECK (level >= 0),
    strength SMALLINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
