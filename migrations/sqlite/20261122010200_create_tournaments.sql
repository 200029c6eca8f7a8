-- SQLite twin of ../20261122010200_create_tournaments.sql.
CREATE TABLE tournaments (
    id                     INTEGER PRIMARY KEY,
    name                   TEXT NOT NULL,
    organizer_token_sha256 TEXT NOT NULL UNIQUE
                           CHECK (length(organizer_token_sha256) = 64 AND organizer_token_sha256 NOT GLOB '*[^0-9a-f]*'),
    created_by             INTEGER REFERENCES api_tokens (id),
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
