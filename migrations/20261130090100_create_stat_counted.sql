-- The games whose counts are in `stat_tallies`: a game is counted once, by whichever process
-- inserts its row first (the key refuses a second count).
CREATE TABLE stat_counted (
    game_id BIGINT PRIMARY KEY
);
