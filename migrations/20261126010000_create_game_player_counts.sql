-- Per-player counters of a complete game (`GameSpec::counters`, e.g. Village's cities visited or
-- Above and Below's explorations): one row per player and counter, for the statistics by count.
-- Games whose statistics read their own facts (Caverna) have none. Like the other fact tables,
-- the rows are checked against `games` per statement and deleted with their game; `chronicle
-- reverify` fills them for games stored before this table existed.
CREATE TABLE game_player_counts (
    game_id BIGINT NOT NULL,
    seat    SMALLINT NOT NULL CHECK (seat >= 0),
    counter TEXT NOT NULL,
    value   BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat, counter)
);

CREATE TRIGGER game_player_counts_game_ins AFTER INSERT ON game_player_counts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_player_counts_game_upd AFTER UPDATE ON game_player_counts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();

CREATE FUNCTION delete_game_player_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM game_player_counts WHERE game_id IN (SELECT id FROM old_rows);
    RETURN NULL;
END
$$;

CREATE TRIGGER games_delete_player_counts AFTER DELETE ON games
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION delete_game_player_counts();
