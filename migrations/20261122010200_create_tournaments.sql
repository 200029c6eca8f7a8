-- Tournaments created through the API. The organizer token (shown once, at creation) is the
-- bearer token for changing the tournament; only its SHA-256 is kept.
CREATE TABLE tournaments (
    id                     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name                   TEXT NOT NULL,
    organizer_token_sha256 TEXT NOT NULL UNIQUE CHECK (organizer_token_sha256 ~ '^[0-9a-f]{64}$'),
    created_by             BIGINT REFERENCES api_tokens (id),
    created_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
