-- An API token may expire (`chronicle token create --expires-in`); NULL: it does not.
ALTER TABLE api_tokens ADD COLUMN expires_at TIMESTAMPTZ;
