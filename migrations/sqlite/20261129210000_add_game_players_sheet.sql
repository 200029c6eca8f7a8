-- SQLite twin of ../20261129210000_add_game_players_sheet.sql.
ALTER TABLE game_players ADD COLUMN sheet TEXT;
