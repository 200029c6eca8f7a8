-- SQLite twin of ../20261129200000_create_store_changes.sql. AUTOINCREMENT: sequence numbers are
-- never reused, even after the newest rows are pruned, and SQLite's single writer commits them
-- in order.
CREATE TABLE store_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    change TEXT NOT NULL
) STRICT;
