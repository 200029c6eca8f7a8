-- SQLite twin of ../20261122010400_create_game_players_name_index.sql.
CREATE INDEX game_players_name ON game_players (name);
