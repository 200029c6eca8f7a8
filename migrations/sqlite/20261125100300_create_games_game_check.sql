-- SQLite twin of ../20261125100300_create_games_game_check.sql: row triggers (in-process
-- look-ups, as SQLite's foreign keys).
CREATE TRIGGER games_kind_ins BEFORE INSERT ON games
WHEN NEW.game IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM game_kinds k
    WHERE k.id = NEW.game AND (NEW.player_count IS NULL OR NEW.player_count BETWEEN k.min_players AND k.max_players)
)
BEGIN
    SELECT RAISE(ABORT, 'games: an unknown game or a player count outside its bounds');
END;

CREATE TRIGGER games_kind_upd BEFORE UPDATE OF game, player_count ON games
WHEN NEW.game IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM game_kinds k
    WHERE k.id = NEW.game AND (NEW.player_count IS NULL OR NEW.player_count BETWEEN k.min_players AND k.max_players)
)
BEGIN
    SELECT RAISE(ABORT, 'games: an unknown game or a player count outside its bounds');
END;
