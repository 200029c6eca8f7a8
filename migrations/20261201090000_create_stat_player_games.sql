-- Who sat in each counted Caverna game, by identity key (the log's player id, else the
-- normalised name: analytics::ratings::player_key): the statistics of one player's games select
-- those games here instead of reading every game. Written by the counting transaction that
-- counts the game (with its `stat_counted` row), replaced with every tally by a recount. No
-- primary key: a key may be longer than a btree entry allows; the next migration indexes it by
-- hash, and the counting step writes each (key, game) once.
CREATE TABLE stat_player_games (
    player_key TEXT NOT NULL,
    game_id    BIGINT NOT NULL
);
