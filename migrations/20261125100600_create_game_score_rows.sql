-- Final scores as data: one row per player of a complete game and score row of its game
-- (`GameSpec::score_rows`, in printed order by `position`); the total stays in
-- `game_players.total`. Replaces the ten Caverna score columns of `game_players`, which the code
-- no longer reads or writes (to be dropped by a later migration). Like the other fact tables,
-- the rows are checked against `games` per statement, and deleted with their game.
CREATE TABLE game_score_rows (
    game_id  BIGINT NOT NULL,
    seat     SMALLINT NOT NULL CHECK (seat >= 0),
    position SMALLINT NOT NULL CHECK (position >= 0),
    row_id   TEXT NOT NULL,
    points   BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat, position)
);

CREATE TRIGGER game_score_rows_game_ins AFTER INSERT ON game_score_rows
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_score_rows_game_upd AFTER UPDATE ON game_score_rows
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();

CREATE FUNCTION delete_game_score_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM game_score_rows WHERE game_id IN (SELECT id FROM old_rows);
    RETURN NULL;
END
$$;

CREATE TRIGGER games_delete_score_rows AFTER DELETE ON games
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION delete_game_score_rows();
