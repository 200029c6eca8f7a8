-- When an API token was revoked (`chronicle token revoke`); NULL: it was not. A revoked token is
-- kept (tournaments name the token that created them) but no longer authenticates.
ALTER TABLE api_tokens ADD COLUMN revoked_at TIMESTAMPTZ;
