-- Expand (docs/scaling.md, "Compact facts"): a player's score rows and counters in their own
-- row, as one compact JSON text (`store/src/packed.rs`: `{"r":[[row id, points], …],
-- "c":[[counter id, value], …]}`), instead of one `game_score_rows` row per score row and one
-- `game_player_counts` row per counter. NULL for rows written before it: those are still read
-- from the two tables until `chronicle reverify` rewrites them.
ALTER TABLE game_players ADD COLUMN sheet TEXT;
