-- The variant the setup chose, one of its game's variants (Caverna: `full` or `introductory`,
-- until now `furnishing_set`). The code reads and writes this column from now on;
-- `furnishing_set` is left unused, to be dropped by a later migration.
ALTER TABLE games ADD COLUMN variant TEXT;
