-- Whether the component data a game's log declares is labelled synthetic (made-up test data, not
-- the printed game's; `Verdict::synthetic_data`), so that statistics say how many of their games
-- rest on it. False for games stored before this column until `chronicle reverify` reads them.
ALTER TABLE games ADD COLUMN synthetic_data BOOLEAN NOT NULL DEFAULT FALSE;
