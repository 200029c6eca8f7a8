-- SQLite twin of ../20261202090200_create_stat_seat_ratings_player_index.sql (SQLite has no
-- hash indexes, and its btree entries take keys of any length).
CREATE INDEX stat_seat_ratings_player ON stat_seat_ratings (player);
