-- Finding the games of a player by name with a hash index: a btree entry must fit in a third of
-- a page (2,704 bytes), so a log with a longer player name could not be stored. A hash index
-- keeps only a 4-byte hash of each name, answers the same `name = $1` lookups, and takes names
-- of any length. The btree index is dropped by the next migration.
CREATE INDEX game_players_name_hash ON game_players USING hash (name);
