-- The calendar month (UTC, numbered year·12 + month − 1 as the statistics' buckets) of each
-- counted Caverna game with a readable `played_at`, written by the counting transaction: a
-- statistics query with a time bound inside a month reads that month's games only. NULL for
-- other games, and for rows counted before this column (the tallies' format changed with it,
-- so every game is counted again and the column filled).
ALTER TABLE stat_counted ADD COLUMN month BIGINT;
