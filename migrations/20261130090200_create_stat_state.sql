-- Where the stored tallies stand: `verdicts` counts the rewrites of stored verdicts
-- (`chronicle reverify` adds one in each transaction that rewrites games), `tallied_verdicts`
-- is the value the tallies were counted at, and `tally_format` the version of their text
-- (tallies counted at another value or version are counted again from every game);
-- `tally_version` numbers the counting transactions and `recounted_at` is the number of the
-- last one that counted every game again (a reader holding older rows reads them all again).
CREATE TABLE stat_state (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
