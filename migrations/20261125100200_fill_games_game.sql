-- Games stored before `games.game` whose log is not a `caverna-log/1` log record no game the
-- previous binary could read (it stored them as invalid, `bad_format`). `chronicle reverify`
-- assigns the logs of a game Chronicle now knows to it.
UPDATE games SET game = NULL WHERE format IS DISTINCT FROM 'caverna-log/1';
