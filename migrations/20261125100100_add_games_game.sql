-- Which game a stored log records (a `game_kinds` id), from its `format`; NULL when the format
-- names no game Chronicle knows. Every game stored before this column is a Caverna game or has
-- an unknown format: the default fills the first, the next migration the second. The default
-- also keeps the previous binary, which stores only Caverna games, writing correct rows.
ALTER TABLE games ADD COLUMN game TEXT DEFAULT 'caverna';
