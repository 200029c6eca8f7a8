-- no-transaction
-- Finding the games one token stored (statistics filtered by uploader) without scanning every
-- game. Built concurrently: `games` may be large, and writes go on meanwhile. A hash index,
-- like the player names': token names of any length fit.
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_uploader_hash ON games USING hash (uploader);
