-- SQLite twin of ../20261129100000_add_games_synthetic_data.sql (`synthetic_data` is 0 or 1).
ALTER TABLE games ADD COLUMN synthetic_data INTEGER NOT NULL DEFAULT 0 CHECK (synthetic_data IN (0, 1));
