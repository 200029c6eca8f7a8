-- PostgreSQL (same file name in migrations/) keeps the gzip-compressed logs in their rows
-- instead of its TOAST table. SQLite has no such setting: a row's overflow goes to overflow pages
-- without compression. Nothing to do here.
SELECT 1;
