//! Final scoring: `docs/rules/caverna-reference.md` G.1 (score-pad rows) and G.2 (the rulebook's 80-point example).

use chronicle_caverna::board::{Coord, Crop, Tile, Under};
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::game::{Dwarf, Player};
use chronicle_caverna::goods::{Good, Goods};
use chronicle_caverna::scoring::{score, ScoreBreakdown};
use serde_json::json;

fn fresh_player() -> Player {
    crate::common::ok(2, json!([])).game.unwrap().players()[0].clone()
}

fn dwarf() -> Dwarf {
    Dwarf { weapon: None, space: None, newborn: false }
}

fn furnish(p: &mut Player, at: (i8, i8), tile: Furnishing) {
    p.board.set_tile(Coord::at(at.0, at.1), Tile::Furnished { tile, under: Under::Cavern });
}

/// G.1: the starting board scores 2 dwarfs, −8 for four missing types, −22 unused spaces.
#[test]
fn g1_starting_position_scores_minus_28() {
    let s = score(&fresh_player());
    assert_eq!(
        s,
        ScoreBreakdown {
            missing_farm_animal_types: -8,
            dwarfs: 2,
            unused_spaces: -22,
            gold_and_begging: 0,
            total: -28,
            ..ScoreBreakdown::default()
        }
    );
}

/// G.1 row 3 (grain halved, rounded up, fields included) and row 10 (begging −3 each).
#[test]
fn g1_grain_rounds_up_and_begging_costs_3() {
    let mut p = fresh_player();
    p.supply = Goods::of(&[(Good::Grain, 2), (Good::Gold, 5)]);
    p.board.set_tile(Coord::at(3, 2), Tile::Field { crop: Some((Crop::Grain, 3)) });
    p.begging = 2;
    let s = score(&p);
    assert_eq!(s.grain, 3, "5 grain → 3");
    assert_eq!(s.gold_and_begging, 5 - 6);
    assert_eq!(s.unused_spaces, -21);
}

/// G.2: the rulebook's worked example totals 80.
#[test]
fn g2_rulebook_example_scores_80() {
    let mut p = fresh_player();
    // Forest: small pasture, large pasture, 3 fields, 3 meadows; 3 spaces left unused.
    p.board.set_tile(Coord::at(3, 2), Tile::SmallPasture);
    p.board.set_tile(Coord::at(3, 1), Tile::LargePasture { partner: Coord::at(3, 0) });
    p.board.set_tile(Coord::at(3, 0), Tile::LargePasture { partner: Coord::at(3, 1) });
    for c in 0..3 {
        p.board.set_tile(Coord::at(2, c), Tile::Field { crop: None });
        p.board.set_tile(Coord::at(1, c), Tile::Meadow);
    }
    // Mountain: two ruby mines, one ore mine (+ deep tunnel), two dwellings, three 2-point
    // tiles, the Fodder chamber, and the empty pre-printed cavern.
    p.board.set_tile(Coord::at(0, 3), Tile::RubyMine);
    p.board.set_tile(Coord::at(0, 4), Tile::RubyMine);
    p.board.set_tile(Coord::at(0, 5), Tile::OreMine);
    p.board.set_tile(Coord::at(1, 5), Tile::DeepTunnel);
    furnish(&mut p, (1, 3), Furnishing::Dwelling);
    furnish(&mut p, (1, 4), Furnishing::Dwelling);
    furnish(&mut p, (2, 4), Furnishing::SlaughteringCave);
    furnish(&mut p, (2, 5), Furnishing::CookingCave);
    furnish(&mut p, (3, 4), Furnishing::WorkingCave);
    furnish(&mut p, (3, 5), Furnishing::FodderChamber);
    p.dwarfs = [dwarf(), dwarf(), dwarf(), dwarf()].into_iter().collect();
    p.supply = Goods::of(&[
        (Good::Dog, 2),
        (Good::Sheep, 10),
        (Good::Donkey, 2),
        (Good::Boar, 4),
        (Good::Cattle, 3),
        (Good::Grain, 9),
        (Good::Vegetable, 4),
        (Good::Ruby, 1),
        (Good::Gold, 13),
    ]);
    let s = score(&p);
    assert_eq!(s.farm_animals_and_dogs, 21);
    assert_eq!(s.missing_farm_animal_types, 0);
    assert_eq!(s.grain, 5);
    assert_eq!(s.vegetables + s.rubies + s.gold_and_begging, 18);
    assert_eq!(s.dwarfs, 4);
    assert_eq!(s.unused_spaces, -3);
    assert_eq!(s.tiles_pastures_mines, 12 + 6 + 11);
    assert_eq!(s.bonus_parlors_storages_chambers, 6, "Fodder chamber: 19 farm animals / 3");
    assert_eq!(s.total, 80);
}

/// H.11: the Writing chamber saves up to 7 points, in the negative rows in pad order.
#[test]
fn h11_writing_chamber_corrects_negative_rows_in_order() {
    let mut p = fresh_player();
    furnish(&mut p, (2, 3), Furnishing::WritingChamber);
    p.begging = 1;
    let s = score(&p);
    // Missing types −8 → −1 (7 saved); unused −22 and begging −3 stay.
    assert_eq!(s.missing_farm_animal_types, -1);
    assert_eq!(s.unused_spaces, -22);
    assert_eq!(s.gold_and_begging, -3);
    p.supply = Goods::of(&[(Good::Sheep, 1), (Good::Donkey, 1), (Good::Boar, 1)]);
    let s = score(&p);
    // Missing −2 → 0 (2 saved), unused −22 → −17 (5 saved).
    assert_eq!((s.missing_farm_animal_types, s.unused_spaces, s.gold_and_begging), (0, -17, -3));
}

/// G.1: the game spec's row ids are the serialised field names, in score-pad order, total last,
/// and the named rows carry each field's points.
#[test]
fn g1_row_ids_match_the_breakdown_fields() {
    let b = ScoreBreakdown {
        farm_animals_and_dogs: 1,
        missing_farm_animal_types: 2,
        grain: 3,
        vegetables: 4,
        rubies: 5,
        dwarfs: 6,
        unused_spaces: 7,
        tiles_pastures_mines: 8,
        bonus_parlors_storages_chambers: 9,
        gold_and_begging: 10,
        total: 55,
    };
    let v = serde_json::to_value(b).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut spec: Vec<&str> = chronicle_game::kind::CAVERNA.score_rows.iter().map(|r| r.id).collect();
    spec.push("total");
    assert_eq!(keys, spec);
    let score = b.score();
    for row in &score.rows {
        assert_eq!(Some(row.points), v[&row.id].as_i64(), "{}", row.id);
    }
    assert_eq!(score.total, 55);
}
