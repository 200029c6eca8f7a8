-- SQLite twin of ../20261125100400_add_games_variant.sql.
ALTER TABLE games ADD COLUMN variant TEXT;
