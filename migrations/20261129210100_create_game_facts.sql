-- Expand (docs/scaling.md, "Compact facts"): a game's facts (placements, furnishings, weapons,
-- expeditions with their loot; `store/src/packed.rs`) in one row per game, as compact JSON text,
-- instead of about 120 rows in five tables. Games written before it are still read from those
-- tables until `chronicle reverify` rewrites them. A foreign key costs one look-up per game here
-- (one row per game, as `game_logs`).
CREATE TABLE game_facts (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    facts   TEXT NOT NULL
);
-- Kept in the row below a page (a 4-player game's facts are 3–5 kB): no compression attempt and
-- no second row in the TOAST table per game, as for `game_logs`.
ALTER TABLE game_facts SET (toast_tuple_target = 8160);
