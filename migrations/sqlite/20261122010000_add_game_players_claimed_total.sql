-- SQLite twin of ../20261122010000_add_game_players_claimed_total.sql.
ALTER TABLE game_players ADD COLUMN claimed_total INTEGER;
