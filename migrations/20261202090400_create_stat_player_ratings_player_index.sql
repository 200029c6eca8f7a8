-- Finding one player's current rating by identity key. A hash index: keys of any length fit.
CREATE INDEX stat_player_ratings_player ON stat_player_ratings USING hash (player);
