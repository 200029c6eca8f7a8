-- The btree index on player names is replaced by `game_players_name_hash` (previous migration):
-- it refused names longer than 2,704 bytes, and with it every game of such a batch.
DROP INDEX game_players_name;
