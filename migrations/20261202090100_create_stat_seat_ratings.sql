-- Each rated seat's Weng-Lin rating before and after its game, from the stored rating model
-- (`stat_models`): what a player's history and a game's "ratings before" read. `player` is the
-- merged identity key, `ord` the game's place in rating order (from 0). Replaced whole, per
-- game, with its model.
CREATE TABLE stat_seat_ratings (
    game_id      BIGINT NOT NULL,
    seat         SMALLINT NOT NULL,
    game         TEXT NOT NULL,
    player       TEXT NOT NULL,
    ord          BIGINT NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
