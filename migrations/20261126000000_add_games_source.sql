-- The log's `meta.source`: who or what recorded the game (the simulator writes `simulate:` and
-- its bots), so lists, statistics and exports can select or leave out simulated games. Filled
-- by the engine's verdict like the other `meta` columns; `chronicle reverify` fills it for
-- games stored before.
ALTER TABLE games ADD COLUMN source TEXT;
