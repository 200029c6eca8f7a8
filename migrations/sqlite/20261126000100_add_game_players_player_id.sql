-- SQLite twin of ../20261126000100_add_game_players_player_id.sql.
ALTER TABLE game_players ADD COLUMN player_id TEXT;
