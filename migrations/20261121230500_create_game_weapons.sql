-- Fact: one row per dwarf that forged a weapon or ends the replay armed: when and how strong it
-- was forged (the first `Forged` event), its strength after the last legal entry, and how many
-- expeditions the dwarf went on.
CREATE TABLE game_weapons (
    game_id         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player          SMALLINT NOT NULL CHECK (player >= 0),
    dwarf           SMALLINT NOT NULL CHECK (dwarf >= 0),
    round_forged    SMALLINT,
    strength_forged SMALLINT,
    final_strength  SMALLINT,
    expeditions     INTEGER NOT NULL CHECK (expeditions >= 0),
    PRIMARY KEY (game_id, player, dwarf),
    CHECK ((round_forged IS NULL) = (strength_forged IS NULL))
);
