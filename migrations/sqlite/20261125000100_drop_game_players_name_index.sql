-- PostgreSQL drops its btree index on player names here (replaced by a hash index). SQLite keeps
-- `game_players_name`: it takes names of any length. Nothing to do here.
SELECT 1;
