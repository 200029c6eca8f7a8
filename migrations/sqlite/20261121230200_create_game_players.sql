-- SQLite twin of ../20261121230200_create_game_players.sql (`winner` is 0 or 1).
CREATE TABLE game_players (
    game_id                         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat                            INTEGER NOT NULL CHECK (seat >= 0),
    name                            TEXT NOT NULL,
    farm_animals_and_dogs           INTEGER,
    missing_farm_animal_types       INTEGER,
    grain                           INTEGER,
    vegetables                      INTEGER,
    rubies                          INTEGER,
    dwarfs                          INTEGER,
    unused_spaces                   INTEGER,
    tiles_pastures_mines            INTEGER,
    bonus_parlors_storages_chambers INTEGER,
    gold_and_begging                INTEGER,
    total                           INTEGER,
    rank                            INTEGER CHECK (rank >= 1),
    winner                          INTEGER NOT NULL CHECK (winner IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    CHECK ((total IS NULL) = (rank IS NULL)),
    CHECK (NOT winner OR rank = 1)
) STRICT;
