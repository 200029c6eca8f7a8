-- PostgreSQL (same file name in migrations/) rewrites its per-statement check of the fact
-- tables' game ids for speed, same rule. SQLite keeps its foreign keys (see
-- 20261122020200_replace_fact_foreign_keys.sql). Nothing to do here.
SELECT 1;
