-- The fact tables' per-row foreign keys become per-statement checks, enforcing the same rules
-- at a fraction of the cost: a per-row key runs one look-up and lock of the parent row per fact
-- row (about 120 fact rows per game), which was most of PostgreSQL's work in an import. Rules
-- kept, as the foreign keys had them:
--   * no player or fact row without its game, no loot row without its expedition: after each
--     INSERT or UPDATE statement on a child table, its distinct parents are locked FOR KEY SHARE
--     (as a foreign key does, so that a concurrent delete waits or is seen) and must all exist;
--     otherwise the statement fails with foreign_key_violation (23503);
--   * deleting a game deletes its players and facts, deleting an expedition its loot (one
--     DELETE per child table and statement instead of ON DELETE CASCADE);
--   * the parent keys (games.id, game_expeditions (game_id, seq)) never change.
-- game_logs and tournament_games keep their foreign keys (one row per game or fewer).

CREATE FUNCTION check_fact_games() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    wanted bigint;
    found  bigint;
BEGIN
    SELECT count(DISTINCT game_id) INTO wanted FROM new_rows;
    SELECT count(*) INTO found FROM (
        SELECT 1 FROM games WHERE id IN (SELECT game_id FROM new_rows) FOR KEY SHARE
    ) AS locked;
    IF found <> wanted THEN
        RAISE EXCEPTION '%: rows without their game', TG_TABLE_NAME
            USING ERRCODE = 'foreign_key_violation',
                  DETAIL = format('%s game ids written, %s of them stored', wanted, found);
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION check_loot_expeditions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    wanted bigint;
    found  bigint;
BEGIN
    SELECT count(*) INTO wanted FROM (SELECT DISTINCT game_id, expedition FROM new_rows) AS parents;
    SELECT count(*) INTO found FROM (
        SELECT 1 FROM game_expeditions
        WHERE (game_id, seq) IN (SELECT game_id, expedition FROM new_rows) FOR KEY SHARE
    ) AS locked;
    IF found <> wanted THEN
        RAISE EXCEPTION '%: rows without their expedition', TG_TABLE_NAME
            USING ERRCODE = 'foreign_key_violation',
                  DETAIL = format('%s expeditions written, %s of them stored', wanted, found);
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION delete_game_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM game_players WHERE game_id IN (SELECT id FROM old_rows);
    DELETE FROM game_placements WHERE game_id IN (SELECT id FROM old_rows);
    DELETE FROM game_furnishings WHERE game_id IN (SELECT id FROM old_rows);
    DELETE FROM game_weapons WHERE game_id IN (SELECT id FROM old_rows);
    DELETE FROM game_expeditions WHERE game_id IN (SELECT id FROM old_rows);
    RETURN NULL;
END
$$;

CREATE FUNCTION delete_expedition_loot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM game_expedition_loot WHERE (game_id, expedition) IN (SELECT game_id, seq FROM old_rows);
    RETURN NULL;
END
$$;

CREATE FUNCTION reject_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the key of a % row never changes (players and facts refer to it)', TG_TABLE_NAME
        USING ERRCODE = 'foreign_key_violation';
END
$$;

-- Transition tables allow one event per trigger: an INSERT and an UPDATE trigger per table.
CREATE TRIGGER game_players_game_ins AFTER INSERT ON game_players
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_players_game_upd AFTER UPDATE ON game_players
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_placements_game_ins AFTER INSERT ON game_placements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_placements_game_upd AFTER UPDATE ON game_placements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_furnishings_game_ins AFTER INSERT ON game_furnishings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_furnishings_game_upd AFTER UPDATE ON game_furnishings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_weapons_game_ins AFTER INSERT ON game_weapons
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_weapons_game_upd AFTER UPDATE ON game_weapons
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_expeditions_game_ins AFTER INSERT ON game_expeditions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_expeditions_game_upd AFTER UPDATE ON game_expeditions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_fact_games();
CREATE TRIGGER game_expedition_loot_expedition_ins AFTER INSERT ON game_expedition_loot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_loot_expeditions();
CREATE TRIGGER game_expedition_loot_expedition_upd AFTER UPDATE ON game_expedition_loot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION check_loot_expeditions();

CREATE TRIGGER games_delete_facts AFTER DELETE ON games
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION delete_game_facts();
CREATE TRIGGER game_expeditions_delete_loot AFTER DELETE ON game_expeditions
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION delete_expedition_loot();

CREATE TRIGGER games_key_fixed BEFORE UPDATE OF id ON games
    FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reject_key_change();
CREATE TRIGGER game_expeditions_key_fixed BEFORE UPDATE OF game_id, seq ON game_expeditions
    FOR EACH ROW WHEN ((OLD.game_id, OLD.seq) IS DISTINCT FROM (NEW.game_id, NEW.seq))
    EXECUTE FUNCTION reject_key_change();

-- Last, so that no moment is without either check.
ALTER TABLE game_expedition_loot DROP CONSTRAINT game_expedition_loot_game_id_expedition_fkey;
ALTER TABLE game_players DROP CONSTRAINT game_players_game_id_fkey;
ALTER TABLE game_placements DROP CONSTRAINT game_placements_game_id_fkey;
ALTER TABLE game_furnishings DROP CONSTRAINT game_furnishings_game_id_fkey;
ALTER TABLE game_weapons DROP CONSTRAINT game_weapons_game_id_fkey;
ALTER TABLE game_expeditions DROP CONSTRAINT game_expeditions_game_id_fkey;
