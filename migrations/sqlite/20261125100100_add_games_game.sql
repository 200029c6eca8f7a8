-- SQLite twin of ../20261125100100_add_games_game.sql.
ALTER TABLE games ADD COLUMN game TEXT DEFAULT 'caverna';
