-- SQLite twin of ../20261125000400_create_store_probes.sql.
CREATE TABLE store_probes (
    id   INTEGER PRIMARY KEY,
    data BLOB NOT NULL
) STRICT;
