-- Where a game was played (`meta.place`: a club, a city, an event's venue), as the log says.
-- Nullable: games stored before this column have none until `chronicle reverify` reads it.
ALTER TABLE games ADD COLUMN place TEXT;
