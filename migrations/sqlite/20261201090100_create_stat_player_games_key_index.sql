-- SQLite twin of ../20261201090100_create_stat_player_games_key_index.sql (SQLite has no hash
-- indexes, and its btree entries take keys of any length).
CREATE INDEX stat_player_games_key ON stat_player_games (player_key);
