-- Merged player identities (`chronicle players merge`): the player whose identity key is
-- `alias` is the player `canonical` (keys as the ratings use them: `id:<id>` for a log's
-- player id, `name:<normalised name>` otherwise). A canonical key is never itself an alias,
-- so a lookup is one step.
CREATE TABLE player_aliases (
    alias      TEXT PRIMARY KEY,
    canonical  TEXT NOT NULL CHECK (canonical <> alias),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
