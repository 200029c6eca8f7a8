-- The rating models kept in the store (docs/scaling.md, "Models in the store"): one row per
-- game (its id) saying which corpus the stored ratings (`stat_seat_ratings`,
-- `stat_player_ratings`) and strategy effects were computed over. `corpus` is the
-- `stat_state.tally_version` of the counted games they cover, `aliases` a fingerprint of the
-- merged player identities, `format` the version of what is stored (a row of another
-- version, corpus or aliases is computed again), `games` the complete games rated, and
-- `effects` what the strategy page shows without a filter, as JSON (NULL for games without
-- strategies). Written only by the models step (service/src/models.rs), with the ratings in
-- one transaction.
CREATE TABLE stat_models (
    game    TEXT PRIMARY KEY,
    format  BIGINT NOT NULL,
    corpus  BIGINT NOT NULL,
    aliases TEXT NOT NULL,
    games   BIGINT NOT NULL,
    effects TEXT
);
