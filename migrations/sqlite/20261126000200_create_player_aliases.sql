-- SQLite twin of ../20261126000200_create_player_aliases.sql.
CREATE TABLE player_aliases (
    alias      TEXT PRIMARY KEY,
    canonical  TEXT NOT NULL CHECK (canonical <> alias),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
