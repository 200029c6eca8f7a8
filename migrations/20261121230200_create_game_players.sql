-- The players of a game in seat order. Score rows, total and rank are set for complete games
-- only (NULL otherwise); rank 1 is the best total, ties share a rank.
CREATE TABLE game_players (
    game_id                         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat                            SMALLINT NOT NULL CHECK (seat >= 0),
    name                            TEXT NOT NULL,
    farm_animals_and_dogs           BIGINT,
    missing_farm_animal_types       BIGINT,
    grain                           BIGINT,
    vegetables                      BIGINT,
    rubies                          BIGINT,
    dwarfs                          BIGINT,
    unused_spaces                   BIGINT,
    tiles_pastures_mines            BIGINT,
    bonus_parlors_storages_chambers BIGINT,
    gold_and_begging                BIGINT,
    total                           BIGINT,
    rank                            SMALLINT CHECK (rank >= 1),
    winner                          BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((total IS NULL) = (rank IS NULL)),
    CHECK (NOT winner OR rank = 1)
);
