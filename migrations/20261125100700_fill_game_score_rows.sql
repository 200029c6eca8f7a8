-- The score rows of the games stored before `game_score_rows`, from the ten score columns of
-- `game_players` (every such game is a Caverna game; the rows of the Caverna score pad, RULES
-- G.1, in printed order). The same points, reshaped: nothing is computed.
INSERT INTO game_score_rows (game_id, seat, position, row_id, points)
SELECT game_id, seat, 0, 'farm_animals_and_dogs', farm_animals_and_dogs FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 1, 'missing_farm_animal_types', missing_farm_animal_types FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 2, 'grain', grain FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 3, 'vegetables', vegetables FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 4, 'rubies', rubies FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 5, 'dwarfs', dwarfs FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 6, 'unused_spaces', unused_spaces FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 7, 'tiles_pastures_mines', tiles_pastures_mines FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 8, 'bonus_parlors_storages_chambers', bonus_parlors_storages_chambers FROM game_players WHERE total IS NOT NULL
UNION ALL
SELECT game_id, seat, 9, 'gold_and_begging', gold_and_begging FROM game_players WHERE total IS NOT NULL;
