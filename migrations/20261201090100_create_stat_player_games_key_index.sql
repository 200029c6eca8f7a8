-- Finding one player's counted games by identity key. A hash index: it keeps a 4-byte hash of
-- each key, so keys of any length fit (a btree entry must fit in a third of a page).
CREATE INDEX stat_player_games_key ON stat_player_games USING hash (player_key);
