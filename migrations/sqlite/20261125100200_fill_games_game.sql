-- SQLite twin of ../20261125100200_fill_games_game.sql.
UPDATE games SET game = NULL WHERE format IS NOT 'caverna-log/1';
