-- Fact: the loot items chosen on each expedition, in the order written in the log.
CREATE TABLE game_expedition_loot (
    game_id    BIGINT NOT NULL,
    expedition INTEGER NOT NULL,
    idx        SMALLINT NOT NULL CHECK (idx >= 0),
    item       TEXT NOT NULL,
    PRIMARY KEY (game_id, expedition, idx),
    FOREIGN KEY (game_id, expedition) REFERENCES game_expeditions (game_id, seq) ON DELETE CASCADE
);
