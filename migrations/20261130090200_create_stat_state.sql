-- Where the stored tallies stand: `verdicts` counts the rewrites of stored verdicts
-- (`chronicle reverify` adds one in each transaction that rewrites games), `tallied_verdicts`
-- is the value the tallies were counted at, and `tally_format` the version of their text.
-- Tallies counted at another value or version are counted again from every game.
CREATE TABLE stat_state (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
