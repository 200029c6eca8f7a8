-- SQLite twin of ../20261125000300_add_api_tokens_revoked_at.sql (RFC 3339 UTC text).
ALTER TABLE api_tokens ADD COLUMN revoked_at TEXT;
