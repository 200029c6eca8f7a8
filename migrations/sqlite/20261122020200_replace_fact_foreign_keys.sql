-- PostgreSQL (same file name in migrations/) replaces the fact tables' per-row foreign keys by
-- per-statement checks with the same rules, because its per-row checks dominated an import.
-- SQLite keeps its foreign keys: they are in-process index look-ups, cheap next to the rest of
-- an insert, and changing them would mean rebuilding every fact table. Nothing to do here.
SELECT 1;
