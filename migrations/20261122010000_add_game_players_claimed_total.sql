-- The final score recorded at the table for each player (`claimed.scores` of the log), when the
-- log has one. Compared with `total` by tournament verification; NULL when not claimed.
ALTER TABLE game_players ADD COLUMN claimed_total BIGINT;
