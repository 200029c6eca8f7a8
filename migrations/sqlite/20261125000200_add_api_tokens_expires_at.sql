-- SQLite twin of ../20261125000200_add_api_tokens_expires_at.sql (RFC 3339 UTC text, as
-- `created_at`).
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
