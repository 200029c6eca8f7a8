-- SQLite twin of ../20261126000000_add_games_source.sql.
ALTER TABLE games ADD COLUMN source TEXT;
