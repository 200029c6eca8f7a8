-- The player's own identifier across games (`setup.players[].id`), when the log gives one:
-- games with the same id are one player whatever name is written.
ALTER TABLE game_players ADD COLUMN player_id TEXT;
