-- The variant of the games stored before `games.variant`: Caverna's furnishing set.
UPDATE games SET variant = furnishing_set WHERE furnishing_set IS NOT NULL;
