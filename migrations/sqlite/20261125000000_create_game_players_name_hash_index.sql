-- PostgreSQL (same file name in migrations/) replaces its btree index on player names, whose
-- entries are limited to 2,704 bytes, by a hash index. SQLite's index entries have no such limit
-- (long keys go to overflow pages) and SQLite has no hash indexes: its `game_players_name` index
-- stays. Nothing to do here.
SELECT 1;
