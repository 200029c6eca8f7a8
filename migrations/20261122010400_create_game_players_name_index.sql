-- Finding the games of a player by name (`games(filter: { playerName })`).
CREATE INDEX game_players_name ON game_players (name);
