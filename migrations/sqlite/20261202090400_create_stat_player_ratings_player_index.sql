-- SQLite twin of ../20261202090400_create_stat_player_ratings_player_index.sql (SQLite has no
-- hash indexes, and its btree entries take keys of any length).
CREATE INDEX stat_player_ratings_player ON stat_player_ratings (player);
