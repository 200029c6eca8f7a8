-- SQLite twin of ../20261201090200_create_games_uploader_index.sql (a btree: SQLite has no
-- hash indexes).
CREATE INDEX IF NOT EXISTS games_uploader ON games (uploader);
