-- The change sequence: one row per committed write that stores games or rewrites verdicts, in
-- the writing transaction, so that every reader — another process on a SQLite file, a server on
-- a PostgreSQL hot standby (which receives no notifications) — catches up by asking for the
-- rows after the last one it applied (`store/src/changes.rs`). `change` is the same text the
-- notification carries (`games FIRST LAST`, `rewritten`). Old rows are pruned by the writers;
-- a reader that finds its last row pruned reads everything again.
CREATE TABLE store_changes (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    change TEXT NOT NULL
);
