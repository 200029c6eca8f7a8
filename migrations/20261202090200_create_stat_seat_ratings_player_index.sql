-- Finding one player's rated seats by identity key. A hash index: keys of any length fit.
CREATE INDEX stat_seat_ratings_player ON stat_seat_ratings USING hash (player);
