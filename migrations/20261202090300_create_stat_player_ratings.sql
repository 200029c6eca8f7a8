-- Each rated player's current Weng-Lin rating from the stored rating model (`stat_models`),
-- with the name of their latest game; `place` is their place in the ratings table (from 0,
-- best `mu − 3·sigma` first, then by key), so that a page of the table is a range of the key.
-- Replaced whole, per game, with its model. The player's key is indexed by hash (next
-- migration): a key may be longer than a btree entry allows.
CREATE TABLE stat_player_ratings (
    game   TEXT NOT NULL,
    place  BIGINT NOT NULL,
    player TEXT NOT NULL,
    name   TEXT NOT NULL,
    mu     DOUBLE PRECISION NOT NULL,
    sigma  DOUBLE PRECISION NOT NULL,
    games  BIGINT NOT NULL,
    PRIMARY KEY (game, place)
);
