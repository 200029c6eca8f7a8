-- SQLite twin of ../20261125100500_fill_games_variant.sql.
UPDATE games SET variant = furnishing_set WHERE furnishing_set IS NOT NULL;
