-- Statistics from the store (docs/scaling.md, "Tallies in the store"): the additive counts of
-- the Caverna statistics, one row per bucket of games (a calendar month and a class: player
-- count, furnishing set, tournament, source). `bucket` is the bucket's key as JSON
-- (`[month, players, full set, tournament, source]`), `tally` its counts as text
-- (analytics/src/stored.rs), `version` the counting transaction that last wrote it (readers
-- read again only the rows newer than what they hold). Written only by the counting step
-- (service/src/tallies.rs).
CREATE TABLE stat_tallies (
    bucket  TEXT PRIMARY KEY,
    tally   TEXT NOT NULL,
    version BIGINT NOT NULL
);
