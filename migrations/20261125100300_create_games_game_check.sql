-- `games.game` names a row of `game_kinds` (or is NULL) and `games.player_count` lies within
-- that game's bounds. One check per statement, over its new rows (as the fact tables' checks in
-- 20261122020200_replace_fact_foreign_keys.sql), so that an import's batch costs one look-up.
CREATE FUNCTION check_games_kind() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad bigint;
BEGIN
    SELECT count(*) INTO bad FROM new_rows n
    WHERE n.game IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM game_kinds k
        WHERE k.id = n.game
          AND (n.player_count IS NULL OR n.player_count BETWEEN k.min_players AND k.max_players)
    );
    IF bad > 0 THEN
        RAISE EXCEPTION 'games: % rows name an unknown game or a player count outside its bounds', bad
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_kind_ins AFTER INSERT ON games
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_games_kind();
CREATE TRIGGER games_kind_upd AFTER UPDATE ON games
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_games_kind();
