//! The 48 furnishing tiles of `docs/rules/caverna-reference.md` E: one test per tile, named `e_<tile id>_<what it
//! pins>`, each with a worked expectation; the interaction notes of E.7; the catalogue data; the
//! introductory set (H.21).
//!
//! Abilities that act during play are checked through real logs (`chronicle_caverna::replay`);
//! bonus formulas are checked on a constructed [`Player`] with `scoring::score`, like
//! `scoring.rs`. Worked numbers are written next to each assertion.

use crate::common::*;
use chronicle_caverna::board::{Coord, Crop, Tile, Under};
use chronicle_caverna::furnishing::{Family, Furnishing, CATALOGUE};
use chronicle_caverna::game::{Dwarf, Dwarfs, Game, Player};
use chronicle_caverna::goods::{Good, Goods};
use chronicle_caverna::rules::furnish::{price, Furnish};
use chronicle_caverna::rules::placement::pasture_price;
use chronicle_caverna::rules::tiles::Pasture;
use chronicle_caverna::rules::{conversion, family, harvest, housing};
use chronicle_caverna::scoring::{bonus, score};
use chronicle_caverna::{replay, ErrorCode as E, Status};
use serde_json::{json, Value};

fn use_tile(tile: &str) -> Value {
    json!({ "do": "use", "tile": tile })
}

fn get(g: &Game, good: Good) -> u32 {
    g.player(0).supply.get(good)
}

fn goods(g: &Game, list: &[Good]) -> Vec<u32> {
    list.iter().map(|&x| get(g, x)).collect()
}

/// Round 1 of a two-player game in which player 0 takes Logging (3 wood) and Supplies (1 wood,
/// 1 stone, 1 ore, 1 food, 2 gold): player 0 then holds 4 wood, 1 stone, 1 ore, 2 food, 2 gold.
fn rich_start() -> Script {
    Script::new(2).round(vec![place(0, "logging", json!([])), place(0, "supplies", json!([]))])
}

/// A player of a fresh two-player game, for scoring on constructed boards.
fn fresh_player() -> Player {
    ok(2, json!([])).game.unwrap().players()[0].clone()
}

fn set(p: &mut Player, at: (i8, i8), tile: Furnishing) {
    p.board.set_tile(Coord::at(at.0, at.1), Tile::Furnished { tile, under: Under::Cavern });
}

fn dwarfs(armed: &[Option<u8>]) -> Dwarfs {
    armed.iter().map(|&weapon| Dwarf { weapon, space: None, newborn: false }).collect()
}

fn at(g: &Game, row: i8, col: i8) -> Option<Tile> {
    g.player(0).board.tile(Coord::at(row, col))
}

// ---------------------------------------------------------------------------------------------
// Catalogue, coverage and the introductory set
// ---------------------------------------------------------------------------------------------

/// `docs/rules/caverna-reference.md` E tables, transcribed independently: id, cost, printed points, intro set.
/// (id, cost, printed points, introductory).
type CardRow = (&'static str, &'static [(Good, u32)], u32, bool);

const RULES_E: [CardRow; 48] = {
    use Good::{Food as F, Gold as G, Grain as Gr, Ore as O, Stone as S, Vegetable as V, Wood as W};
    [
        ("dwelling", &[(W, 4), (S, 3)], 3, true),
        ("simple_dwelling_4w2s", &[(W, 4), (S, 2)], 0, true),
        ("simple_dwelling_3w3s", &[(W, 3), (S, 3)], 0, true),
        ("mixed_dwelling", &[(W, 5), (S, 4)], 4, false),
        ("couple_dwelling", &[(W, 8), (S, 6)], 5, false),
        ("additional_dwelling", &[(W, 4), (S, 3)], 5, false),
        ("cuddle_room", &[(W, 1)], 2, true),
        ("breakfast_room", &[(W, 1)], 0, true),
        ("stubble_room", &[(W, 1), (O, 1)], 1, true),
        ("work_room", &[(S, 1)], 2, false),
        ("guest_room", &[(W, 1), (S, 1)], 0, false),
        ("office_room", &[(S, 1)], 0, false),
        ("carpenter", &[(S, 1)], 0, true),
        ("stone_carver", &[(W, 1)], 1, true),
        ("blacksmith", &[(W, 1), (S, 2)], 3, true),
        ("miner", &[(W, 1), (S, 1)], 3, false),
        ("builder", &[(S, 1)], 2, false),
        ("trader", &[(W, 1)], 2, false),
        ("wood_supplier", &[(S, 1)], 2, true),
        ("stone_supplier", &[(W, 1)], 1, true),
        ("ruby_supplier", &[(W, 2), (S, 2)], 2, true),
        ("dog_school", &[], 0, false),
        ("quarry", &[(W, 1)], 2, false),
        ("seam", &[(W, 2)], 1, false),
        ("slaughtering_cave", &[(W, 2), (S, 2)], 2, true),
        ("cooking_cave", &[(S, 2)], 2, true),
        ("working_cave", &[(W, 1), (S, 1)], 2, true),
        ("mining_cave", &[(W, 3), (S, 2)], 2, false),
        ("breeding_cave", &[(Gr, 1), (S, 1)], 2, false),
        ("peaceful_cave", &[(W, 2), (S, 2)], 2, false),
        ("weaving_parlor", &[(W, 2), (S, 1)], 0, true),
        ("milking_parlor", &[(W, 2), (S, 2)], 0, true),
        ("state_parlor", &[(G, 5), (S, 3)], 0, false),
        ("hunting_parlor", &[(W, 2)], 1, true),
        ("beer_parlor", &[(W, 2)], 3, true),
        ("blacksmithing_parlor", &[(O, 3)], 2, false),
        ("stone_storage", &[(W, 3), (O, 1)], 0, true),
        ("ore_storage", &[(W, 1), (S, 2)], 0, true),
        ("spare_part_storage", &[(W, 2)], 0, false),
        ("main_storage", &[(W, 2), (S, 1)], 0, true),
        ("weapon_storage", &[(W, 3), (S, 2)], 0, true),
        ("supplies_storage", &[(W, 1), (F, 3)], 0, false),
        ("broom_chamber", &[(W, 1)], 0, false),
        ("treasure_chamber", &[(W, 1), (S, 1)], 0, true),
        ("food_chamber", &[(W, 2), (V, 2)], 0, true),
        ("prayer_chamber", &[(W, 2)], 0, false),
        ("writing_chamber", &[(S, 2)], 0, true),
        ("fodder_chamber", &[(Gr, 2), (S, 1)], 0, true),
    ]
};

/// E.1–E.6: the engine's catalogue has the costs, printed points and sets of `docs/rules/caverna-reference.md` E, in
/// its order; the yellow tiles are the parlors, storages and chambers (E "Structure").
#[test]
fn catalogue_matches_rules_e() {
    for (card, (id, cost, points, intro)) in CATALOGUE.iter().zip(RULES_E) {
        assert_eq!(card.id, id);
        assert_eq!(card.cost, Goods::of(cost), "{id} cost");
        assert_eq!(card.points, points, "{id} points");
        assert_eq!(card.intro, intro, "{id} set");
        // E.1 (6 dwellings), E.2–E.4 (24 green tiles), E.5–E.6 (18 yellow tiles).
        let expected = match card.tile as usize {
            0..=5 => Family::Dwelling,
            6..=29 => Family::Ordinary,
            _ => Family::Bonus,
        };
        assert_eq!(card.family, expected, "{id} family");
    }
}

/// Every one of the 48 tiles has its own test in this file, named `e_<tile id>_…`.
#[test]
fn every_tile_has_an_ability_or_bonus_test() {
    let source = include_str!("furnishings.rs");
    let missing: Vec<&str> =
        CATALOGUE.iter().map(|c| c.id).filter(|id| !source.contains(&format!("fn e_{id}_"))).collect();
    assert_eq!(CATALOGUE.len(), 48);
    assert!(missing.is_empty(), "tiles without a test: {missing:?}");
}

/// H.21: `furnishings: "introductory"` makes every tile outside the introductory set
/// unavailable (`furnishing_unavailable` before any cost or cell check) and keeps the 27
/// introductory tiles available (an intro tile fails only for want of goods, never as
/// unavailable). With the full set every tile is available.
#[test]
fn introductory_set_rejects_every_full_only_tile_and_accepts_the_intro_ones() {
    let intro_log = |tile: &str| {
        let mut s = setup(2);
        s["furnishings"] = json!("introductory");
        json!({ "format": "caverna-log/1", "setup": s,
                "entries": [place(0, "housework", json!([furnish(tile, [2, 3])]))] })
        .to_string()
    };
    let mut accepted = 0;
    for (id, _, _, intro) in RULES_E {
        let tile = Furnishing::from_id(id).unwrap();
        let r = replay(intro_log(id).as_bytes());
        let code = r.error.as_ref().map(|e| (e.entry, e.code));
        // Round 1, nothing gathered yet: an intro tile fails only on its cost (or is built).
        assert_eq!(r.game.as_ref().unwrap().is_available(tile) || code.is_none(), intro, "{id}");
        if intro {
            accepted += 1;
            assert!(matches!(code, None | Some((Some(0), E::InsufficientGoods))), "{id}: {code:?}");
        } else {
            assert_eq!(code, Some((Some(0), E::FurnishingUnavailable)), "{id} is not introductory");
        }
    }
    assert_eq!(accepted, 27);
    // The full set: the Dog school (free, full set only) is built in round 1.
    let g = ok(2, json!([place(0, "housework", json!([furnish("dog_school", [2, 3])]))])).game.unwrap();
    assert_eq!(at(&g, 2, 3), Some(Tile::Furnished { tile: Furnishing::DogSchool, under: Under::Cavern }));
}

// ---------------------------------------------------------------------------------------------
// E.1 Dwellings
// ---------------------------------------------------------------------------------------------

/// E.1 `dwelling`: costs 4 wood 3 stone, scores 3, gives room for one dwarf (F.2); it is the
/// only tile with unlimited copies.
#[test]
fn e_dwelling_costs_4w3s_scores_3_and_houses_one_more_dwarf() {
    // Round 1: 4 wood 1 stone (rich_start). Round 2: Drift mining 2 stone → 3 stone; build.
    let s = rich_start().round(vec![place(0, "drift_mining", json!([])), housework("dwelling", [2, 3])]);
    let g = s.game();
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [0, 0]);
    assert_eq!(family::dwarf_room(g.player(0)), 2 + 1);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 3);
    assert!(g.is_available(Furnishing::Dwelling), "dwellings are unlimited");
    // Round 4: Wish for children fills the new room: 3 dwarfs, no room left.
    let g = s.clone().quiet(1).round(vec![place(0, "wish_for_children", json!([{ "do": "grow" }])), PASS]).game();
    assert_eq!(g.player(0).dwarfs_in_play(), 3);
    assert_eq!(family::dwarf_room(g.player(0)), 3);
    // With 3 wood and no stone (round 1, Logging only) it cannot be paid.
    Script::new(2)
        .round(vec![place(0, "logging", json!([])), housework("dwelling", [2, 3])])
        .rejects(E::InsufficientGoods);
}

/// E.1 `simple_dwelling_4w2s`: 4 wood 2 stone, 0 points, one dwarf.
#[test]
fn e_simple_dwelling_4w2s_costs_4w2s_scores_0_and_houses_one_dwarf() {
    let g =
        rich_start().round(vec![place(0, "drift_mining", json!([])), housework("simple_dwelling_4w2s", [2, 3])]).game();
    // 4 wood 3 stone − 4 wood 2 stone.
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [0, 1]);
    assert_eq!(family::dwarf_room(g.player(0)), 3);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 0);
    assert!(!g.is_available(Furnishing::SimpleDwelling4w2s), "unique");
}

/// E.1 `simple_dwelling_3w3s`: 3 wood 3 stone, 0 points, one dwarf.
#[test]
fn e_simple_dwelling_3w3s_costs_3w3s_scores_0_and_houses_one_dwarf() {
    let g =
        rich_start().round(vec![place(0, "drift_mining", json!([])), housework("simple_dwelling_3w3s", [2, 3])]).game();
    // 4 wood 3 stone − 3 wood 3 stone.
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [1, 0]);
    assert_eq!(family::dwarf_room(g.player(0)), 3);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 0);
}

/// E.1 `mixed_dwelling`: 5 wood 4 stone, 4 points, one dwarf and 2 animals of one type (F.1):
/// with it, the 3 sheep of round 4's Sheep farming fit (entry dwelling 2 + mixed dwelling 2);
/// without it they do not.
#[test]
fn e_mixed_dwelling_houses_a_dwarf_and_a_pair_of_animals() {
    let build = |with: bool| {
        let r3 = if with { housework("mixed_dwelling", [2, 3]) } else { PASS };
        rich_start()
            // Round 2: Clearing 2 wood (→ 6), Drift mining 2 stone (→ 3).
            .round(vec![place(0, "clearing", json!([])), place(0, "drift_mining", json!([]))])
            // Round 3: Excavation 3 stone (→ 6), then the dwelling: 1 wood 2 stone left.
            .round(vec![place(0, "excavation", json!([])), r3])
            // Round 4: Sheep farming holds 3 sheep (1 a round since round 2).
            .round(vec![place(0, "sheep_farming", json!([])), PASS])
    };
    let (_, g) = build(true).around("housework");
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [1, 2]);
    assert_eq!(family::dwarf_room(g.player(0)), 3);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 4);
    let g = build(true).game();
    assert_eq!(get(&g, Good::Sheep), 3);
    let entry = build(false).rejects(E::AnimalsUnhoused);
    assert_eq!(entry["space"], "sheep_farming");
    // One type per dwelling: 2 sheep + 2 cattle fit, 2 + 1 + 1 do not, 5 sheep do not.
    let p = g.player(0);
    let fits = |a: [u32; 4]| housing::fits(&p.board, 2, a, 0);
    assert!(fits([4, 0, 0, 0]) && fits([2, 0, 0, 2]));
    assert!(!fits([2, 1, 1, 0]) && !fits([5, 0, 0, 0]));
}

/// E.1 `couple_dwelling`: 8 wood 6 stone, 5 points, room for 2 dwarfs; built on Wish for
/// children (Furnish a dwelling).
#[test]
fn e_couple_dwelling_costs_8w6s_scores_5_and_houses_two_dwarfs() {
    let g = rich_start()
        // Round 2: Clearing 2 wood (→ 6), Drift mining 2 stone (→ 3).
        .round(vec![place(0, "clearing", json!([])), place(0, "drift_mining", json!([]))])
        // Round 3: Excavation 3 stone (→ 6), Logging 4 wood (3 + 1 since round 1) → 10.
        .round(vec![place(0, "excavation", json!([])), place(0, "logging", json!([]))])
        .round(vec![place(0, "wish_for_children", json!([furnish("couple_dwelling", [2, 3])])), PASS])
        .around("wish_for_children")
        .1;
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [2, 0]);
    assert_eq!(family::dwarf_room(g.player(0)), 2 + 2);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 5);
    // E.7: built on Urgent wish for children (round 7), it still allows one growth only.
    let urgent = |actions: Value| {
        rich_start()
            .round(vec![place(0, "clearing", json!([])), place(0, "drift_mining", json!([]))])
            .round(vec![place(0, "excavation", json!([])), place(0, "logging", json!([]))])
            .quiet(3)
            .round(vec![PASS, place(0, "urgent_wish_for_children", actions)])
    };
    let couple = furnish("couple_dwelling", [2, 3]);
    let twice = urgent(json!([couple.clone(), { "do": "grow" }, { "do": "grow" }]));
    assert_eq!(twice.rejects(E::ActionNotAllowed)["space"], "urgent_wish_for_children");
    let (_, g) = urgent(json!([couple, { "do": "grow" }])).around("urgent_wish_for_children");
    assert_eq!((g.round(), g.player(0).dwarfs_in_play(), family::dwarf_room(g.player(0))), (7, 3, 4));
}

/// E.1 `additional_dwelling`: 4 wood 3 stone, 5 points; room for a 6th dwarf only, empty until
/// its owner has 5 dwarfs (F.2, E.7).
#[test]
fn e_additional_dwelling_gives_room_only_from_five_dwarfs() {
    let s = rich_start().round(vec![place(0, "drift_mining", json!([])), housework("additional_dwelling", [2, 3])]);
    let g = s.game();
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [0, 0]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 5);
    assert_eq!(family::dwarf_room(g.player(0)), 2, "no room with 2 dwarfs");
    // Round 4: no growth into it.
    let entry =
        s.quiet(1).round(vec![place(0, "wish_for_children", json!([{ "do": "grow" }])), PASS]).rejects(E::NoRoom);
    assert_eq!(entry["space"], "wish_for_children");
    // Five dwarfs in entry + 3 dwellings: the Additional dwelling makes a 6th possible.
    let mut p = fresh_player();
    for c in [(2, 3), (1, 3), (0, 3)] {
        set(&mut p, c, Furnishing::Dwelling);
    }
    p.dwarfs = dwarfs(&[None; 5]);
    assert_eq!(family::grow(&mut p.clone()).map_err(|e| e.code), Err(E::NoRoom), "5 is the limit");
    set(&mut p, (1, 4), Furnishing::AdditionalDwelling);
    assert_eq!(family::dwarf_room(&p), 6);
    family::grow(&mut p).unwrap();
    assert_eq!(p.dwarfs_in_play(), 6);
    assert_eq!(family::grow(&mut p).map_err(|e| e.code), Err(E::NoRoom), "6 is the limit");
    // With 4 dwarfs it is still empty: entry 2 + 2 dwellings + 0.
    let mut q = fresh_player();
    set(&mut q, (2, 3), Furnishing::Dwelling);
    set(&mut q, (1, 3), Furnishing::Dwelling);
    set(&mut q, (1, 4), Furnishing::AdditionalDwelling);
    q.dwarfs = dwarfs(&[None; 4]);
    assert_eq!(family::dwarf_room(&q), 4);
    assert_eq!(family::grow(&mut q).map_err(|e| e.code), Err(E::NoRoom));
}

// ---------------------------------------------------------------------------------------------
// E.2 Special tiles
// ---------------------------------------------------------------------------------------------

/// E.2 `cuddle_room`: 1 wood, 2 points; holds as many sheep as the player has dwarfs (a
/// this-round newborn counts, E.7), nothing else. Round 4's 3 sheep fit only with it.
#[test]
fn e_cuddle_room_holds_sheep_up_to_the_number_of_dwarfs() {
    let build = |with: bool| {
        let r1 = if with { housework("cuddle_room", [2, 3]) } else { PASS };
        Script::new(2)
            .round(vec![place(0, "logging", json!([])), r1])
            .quiet(2)
            .round(vec![place(0, "sheep_farming", json!([])), PASS])
    };
    let g = build(true).game();
    assert_eq!(get(&g, Good::Sheep), 3);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
    assert_eq!(build(false).rejects(E::AnimalsUnhoused)["space"], "sheep_farming");
    let b = &g.player(0).board;
    // Entry dwelling 2 + Cuddle room 2 (2 dwarfs) = 4 sheep; 5 with a third (newborn) dwarf.
    assert!(housing::fits(b, 2, [4, 0, 0, 0], 0));
    assert!(!housing::fits(b, 2, [5, 0, 0, 0], 0));
    assert!(housing::fits(b, 3, [5, 0, 0, 0], 0));
    // No other animal: 3 boars do not fit.
    assert!(!housing::fits(b, 3, [0, 0, 3, 0], 0));
}

/// E.2 `breakfast_room`: 1 wood, 0 points; holds up to 3 cattle, nothing else. Five players:
/// a sheep and a cattle bought at the Weekly market need two containers.
#[test]
fn e_breakfast_room_holds_three_cattle() {
    let build = |with: bool| {
        let r1 = if with { housework("breakfast_room", [2, 3]) } else { PASS };
        let buy = json!([{ "do": "buy", "goods": ["sheep", "cattle"] }]);
        Script::new(5).round(vec![place(0, "logging", json!([])), r1]).round(vec![place(0, "weekly_market", buy), PASS])
    };
    let (_, g) = build(true).around("weekly_market");
    // 4 gold − 1 (sheep) − 3 (cattle).
    assert_eq!(goods(&g, &[Good::Gold, Good::Sheep, Good::Cattle]), [0, 1, 1]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 0);
    assert_eq!(build(false).rejects(E::AnimalsUnhoused)["space"], "weekly_market");
    let b = &g.player(0).board;
    // Entry dwelling 2 + Breakfast room 3 = 5 cattle; sheep only in the dwelling.
    assert!(housing::fits(b, 2, [0, 0, 0, 5], 0));
    assert!(!housing::fits(b, 2, [0, 0, 0, 6], 0));
    assert!(!housing::fits(b, 2, [3, 0, 0, 0], 0));
}

/// E.2 `stubble_room`: 1 wood 1 ore, 1 point; each empty field holds one farm animal, and
/// sowing the field evicts it.
#[test]
fn e_stubble_room_lets_empty_fields_hold_one_animal() {
    let build = |with: bool| {
        let r1 = if with { housework("stubble_room", [2, 3]) } else { PASS };
        let field = twin(json!([[3, 2], [3, 1]]), json!(["field", "meadow"]));
        Script::new(2)
            // Supplies: 1 wood 1 ore for the room.
            .round(vec![place(0, "supplies", json!([])), r1])
            .round(vec![place(0, "clearing", json!([field])), PASS])
            // Sustenance: 1 grain for sowing later.
            .round(vec![place(0, "sustenance", json!([])), PASS])
            // Round 4: 3 sheep = entry dwelling 2 + the empty field 1.
            .round(vec![place(0, "sheep_farming", json!([])), PASS])
    };
    let g = build(true).game();
    assert_eq!(get(&g, Good::Sheep), 3);
    assert_eq!(goods(&g, &[Good::Ore]), [0]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 1);
    assert_eq!(build(false).rejects(E::AnimalsUnhoused)["space"], "sheep_farming");
    // Sowing the field leaves the third sheep without a place.
    let sow = json!([{ "do": "sow", "grain": [[3, 2]] }]);
    let mut s = build(true);
    s.entries.truncate(s.index_of("sheep_farming") + 2);
    let s = s.then(place(0, "slash_and_burn", sow));
    assert_eq!(s.rejects(E::AnimalsUnhoused)["space"], "slash_and_burn");
    // Any type on a field, one per field: a sheep pair in the dwelling plus one boar.
    assert!(housing::fits(&g.player(0).board, 2, [2, 0, 1, 0], 0));
    assert!(!housing::fits(&g.player(0).board, 2, [2, 0, 2, 0], 0));
}

/// E.2 `work_room` (and H.22): 1 stone, 2 points; afterwards tiles may be furnished on
/// tunnels; the Work room itself must go on a cavern.
#[test]
fn e_work_room_opens_tunnels_but_not_for_itself() {
    let ct = twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]));
    // Round 1: Supplies 1 stone, Drift mining 1 stone and a tunnel at [1, 4].
    let base = Script::new(2).round(vec![place(0, "supplies", json!([])), place(0, "drift_mining", json!([ct]))]);
    assert_eq!(
        base.clone().round(vec![housework("work_room", [1, 4]), PASS]).rejects(E::FurnishingCell)["space"],
        "housework"
    );
    assert_eq!(
        base.clone().round(vec![housework("carpenter", [1, 4]), PASS]).rejects(E::FurnishingCell)["space"],
        "housework"
    );
    let g =
        base.round(vec![housework("work_room", [2, 3]), PASS]).round(vec![housework("carpenter", [1, 4]), PASS]).game();
    assert_eq!(at(&g, 1, 4), Some(Tile::Furnished { tile: Furnishing::Carpenter, under: Under::Tunnel }));
    // 2 stone − 1 (Work room) − 1 (Carpenter).
    assert_eq!(get(&g, Good::Stone), 0);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
}

/// E.2 `guest_room` (H.8): 1 wood 1 stone, 0 points; Wish for children's "either growth or a
/// dwelling" becomes and/or: build the dwelling and grow into it in one action.
#[test]
fn e_guest_room_turns_wish_for_children_into_and_or() {
    let both = json!([furnish("dwelling", [1, 3]), { "do": "grow" }]);
    let cc = twin(json!([[1, 3], [1, 4]]), json!(["cavern", "cavern"]));
    let build = |with: bool| {
        let r2 = if with { housework("guest_room", [2, 3]) } else { PASS };
        rich_start()
            // Round 2: Guest room (→ 3 wood 0 stone), Drift mining 2 stone.
            .round(vec![r2, place(0, "drift_mining", json!([]))])
            // Round 3: Excavation 3 stone and two caverns; Clearing 3 wood.
            .round(vec![place(0, "excavation", json!([cc])), place(0, "clearing", json!([]))])
            .round(vec![place(0, "wish_for_children", both.clone()), PASS])
    };
    let (_, g) = build(true).around("wish_for_children");
    assert_eq!(g.player(0).dwarfs_in_play(), 3);
    // 6 wood 5 stone − 4 wood 3 stone.
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [2, 2]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 3, "Guest room 0 + dwelling 3");
    assert_eq!(build(false).rejects(E::ActionNotAllowed)["space"], "wish_for_children");
}

/// E.2 / E.7 `office_room`: 1 stone, 0 points. Cavern/Tunnel twins may overhang by one half,
/// +2 gold each time; both halves off the board is refused; an Ore mine twin may lie wholly on
/// two off-board tunnels (no gold); single tiles never overhang; off-board cells never count
/// as unused spaces.
#[test]
fn e_office_room_lets_twins_overhang_for_2_gold() {
    let ct = |a: [i8; 2], b: [i8; 2]| twin(json!([a, b]), json!(["cavern", "tunnel"]));
    let base = Script::new(2).round(vec![place(0, "supplies", json!([])), housework("office_room", [2, 3])]);
    let off = base.clone().round(vec![place(0, "excavation", json!([ct([4, 4], [4, 5])])), PASS]);
    assert_eq!(off.rejects(E::CellOffBoard)["space"], "excavation");
    let s = base
        // Round 2: [3, 4] + ring [4, 4] (+2 gold, +1 food from the water source), then
        // [3, 5] + ring [4, 5] (+2 gold).
        .round(vec![
            place(0, "excavation", json!([ct([3, 4], [4, 4])])),
            place(0, "drift_mining", json!([ct([3, 5], [4, 5])])),
        ])
        .round(vec![
            place(
                0,
                "ore_mine_construction",
                json!([{ "do": "ore_mine", "cells": [[4, 4], [4, 5]], "kinds": ["ore_mine", "deep_tunnel"] }]),
            ),
            PASS,
        ]);
    let (_, g) = s.around("ore_mine_construction");
    // 2 gold (Supplies) + 2 + 2; the ore mine on the ring gives 3 ore and no gold.
    assert_eq!(goods(&g, &[Good::Gold, Good::Ore]), [6, 1 + 3]);
    assert_eq!(at(&g, 4, 4), Some(Tile::OreMine));
    let sc = score(g.player(0));
    // Inner spaces used: entry dwelling, Office room, [3, 4], [3, 5] → 20 unused.
    assert_eq!(sc.unused_spaces, -20);
    assert_eq!(sc.tiles_pastures_mines, 3, "ore mine 3, Office room 0");
    // A single tile never overhangs, even with the Office room (Ruby mining's round-3 ruby).
    let single =
        s.round(vec![place(0, "ruby_mining", json!([{ "do": "ruby_tile", "tile": "tunnel", "at": [4, 3] }])), PASS]);
    assert_eq!(single.rejects(E::CellOffBoard)["space"], "ruby_mining");
}

// ---------------------------------------------------------------------------------------------
// E.3 Building-material tiles
// ---------------------------------------------------------------------------------------------

/// E.3 / E.7 `carpenter` (H.9): 1 stone, 0 points; −1 wood on every furnishing and on every
/// pasture built (small or large, loot pastures too).
#[test]
fn e_carpenter_saves_a_wood_per_furnishing_and_per_pasture() {
    let mf = |a: [i8; 2], b: [i8; 2]| twin(json!([a, b]), json!(["meadow", "field"]));
    let ct = twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]));
    let s = Script::new(2)
        // Round 1: Supplies 1 wood 1 stone; the Carpenter takes the stone.
        .round(vec![place(0, "supplies", json!([])), housework("carpenter", [2, 3])])
        // Round 2: Clearing (2 wood → 3) and Sustenance: meadows at [3, 2] and [2, 2].
        .round(vec![
            place(0, "clearing", json!([mf([3, 2], [3, 1])])),
            place(0, "sustenance", json!([mf([2, 2], [1, 2])])),
        ])
        // Round 3: a large pasture for 4 − 1 = 3 wood; Drift mining 3 stone and a cavern.
        .round(vec![
            place(0, "sheep_farming", json!([{ "do": "fence", "cells": [[3, 2], [2, 2]] }])),
            place(0, "drift_mining", json!([ct])),
        ])
        // Round 4: a Guest room (1 wood 1 stone) for 0 wood 1 stone.
        .round(vec![housework("guest_room", [1, 3]), PASS]);
    let (_, g) = s.around("sheep_farming");
    assert_eq!(get(&g, Good::Wood), 0);
    assert_eq!(at(&g, 3, 2), Some(Tile::LargePasture { partner: Coord::at(2, 2) }));
    let (_, g) = s.around("housework");
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [0, 2]);
    let p = g.player(0);
    assert_eq!(price(&g, 0, Furnishing::Dwelling, Furnish::Any), Goods::of(&[(Good::Wood, 3), (Good::Stone, 3)]));
    assert_eq!(
        price(&g, 0, Furnishing::Dwelling, Furnish::LootDwelling),
        Goods::of(&[(Good::Wood, 1), (Good::Stone, 2)])
    );
    assert_eq!(price(&g, 0, Furnishing::Seam, Furnish::Any), Goods::of(&[(Good::Wood, 1)]));
    assert_eq!(price(&g, 0, Furnishing::Builder, Furnish::Any), Goods::of(&[(Good::Stone, 1)]), "never below zero");
    let prices = [
        pasture_price(p, Pasture::Small, false),
        pasture_price(p, Pasture::Large, false),
        pasture_price(p, Pasture::Small, true),
        pasture_price(p, Pasture::Large, true),
    ];
    assert_eq!(prices, [1, 3, 0, 1]);
    assert_eq!(score(p).tiles_pastures_mines, 4, "large pasture 4, Carpenter and Guest room 0");
}

/// E.3 / E.7 `stone_carver`: 1 wood, 1 point; +2 stone when built; −1 stone on every
/// furnishing; stables cost nothing.
#[test]
fn e_stone_carver_gives_2_stone_and_saves_stone() {
    let cc = twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]));
    let s = Script::new(2)
        // Round 1: Logging 3 wood; the carver costs 1 wood and gives 2 stone.
        .round(vec![place(0, "logging", json!([])), housework("stone_carver", [2, 3])])
        // Round 2: a free stable; Excavation 2 stone (→ 4) and two caverns.
        .round(vec![
            place(0, "sheep_farming", json!([{ "do": "stable", "at": [0, 0] }])),
            place(0, "excavation", json!([cc])),
        ])
        // Round 3: Clearing 3 wood (→ 5); a 3-wood 3-stone dwelling for 3 wood 2 stone.
        .round(vec![place(0, "clearing", json!([])), housework("simple_dwelling_3w3s", [1, 3])]);
    let (_, g) = s.around("housework");
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone]), [2, 2]);
    let (before, after) = s.around("sheep_farming");
    assert_eq!(goods(&before, &[Good::Stone]), [2]);
    assert_eq!(goods(&after, &[Good::Stone]), [2], "the stable was free");
    assert!(after.player(0).board.has_stable(Coord::at(0, 0)));
    assert_eq!(price(&g, 0, Furnishing::Dwelling, Furnish::Any), Goods::of(&[(Good::Wood, 4), (Good::Stone, 2)]));
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 1);
}

/// E.3 / E.7 `blacksmith` (H.24): 1 wood 2 stone, 3 points; +2 ore when built; forging costs 2
/// ore less; Ore trading still costs 2 ore a trade.
#[test]
fn e_blacksmith_gives_2_ore_and_discounts_forging_but_not_ore_trading() {
    let mut s = Script::new(2);
    // Ore trading in round 10 (stage 4 in any order).
    s.setup["round_cards"] = json!([
        "blacksmithing",
        "sheep_farming",
        "ore_mine_construction",
        "wish_for_children",
        "donkey_farming",
        "ruby_mine_construction",
        "family_life",
        "ore_delivery",
        "ore_trading",
        "adventure",
        "ruby_delivery"
    ]);
    let s = s
        // Round 1: Supplies (1 wood 1 stone 1 ore), Drift mining (1 stone).
        .round(vec![place(0, "supplies", json!([])), place(0, "drift_mining", json!([]))])
        // Round 2: Blacksmith (→ 0 wood 0 stone, 3 ore); a strength-5 weapon for 3 ore.
        .round(vec![
            housework("blacksmith", [2, 3]),
            place(0, "blacksmithing", json!([{ "do": "forge", "strength": 5 }])),
        ]);
    let (before, after) = s.around("housework");
    assert_eq!(goods(&before, &[Good::Wood, Good::Stone, Good::Ore]), [1, 2, 1]);
    assert_eq!(goods(&after, &[Good::Wood, Good::Stone, Good::Ore]), [0, 0, 3]);
    let g = s.game();
    assert_eq!(get(&g, Good::Ore), 0);
    assert_eq!(g.player(0).dwarfs[1].weapon, Some(5));
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 3);
    // Rounds 3–8 quiet; round 10: Ore mining, then one trade: 2 ore → 2 gold + 1 food.
    let s = s.quiet(6).round(vec![
        place(0, "ore_mining", json!([])),
        place(0, "ore_trading", json!([{ "do": "trade_ore", "times": 1 }])),
    ]);
    let (before, after) = s.around("ore_trading");
    assert_eq!(before.round(), 10);
    assert!(get(&before, Good::Ore) >= 2);
    assert_eq!(get(&after, Good::Ore) + 2, get(&before, Good::Ore));
    assert_eq!(get(&after, Good::Gold), get(&before, Good::Gold) + 2);
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 1);
}

/// E.3 `miner`: 1 wood 1 stone, 3 points; at the start of each round +1 ore per Ore mine holding
/// a donkey.
#[test]
fn e_miner_gives_ore_per_ore_mine_with_a_donkey_each_round() {
    let build = |donkey: bool| {
        let ruby = if donkey { json!([{ "do": "ruby_trade", "goods": { "donkey": 1 } }]) } else { json!([]) };
        Script::new(2)
            // Round 1: Supplies (1 wood 1 stone 1 ore) pays the Miner.
            .round(vec![place(0, "supplies", json!([])), housework("miner", [2, 3])])
            // Round 2: two Cavern/Tunnel twins: tunnels at [1, 4] and [0, 4].
            .round(vec![
                place(0, "drift_mining", json!([twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]))])),
                place(0, "excavation", json!([twin(json!([[0, 4], [0, 3]]), json!(["tunnel", "cavern"]))])),
            ])
            // Round 3: the ore mine (+3 ore); Ruby mining's first ruby buys a donkey.
            .round(vec![
                place(
                    0,
                    "ore_mine_construction",
                    json!([{ "do": "ore_mine", "cells": [[1, 4], [0, 4]], "kinds": ["ore_mine", "deep_tunnel"] }]),
                ),
                place(0, "ruby_mining", ruby),
            ])
    };
    // The log ends after round 3: its harvest, then round 4 starts with the Miner's ore.
    let g = build(true).game();
    assert_eq!(g.round(), 4);
    assert_eq!(get(&g, Good::Ore), 1 + 3 + 1);
    assert_eq!(get(&g, Good::Donkey), 1);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 3 + 3, "Miner 3 + ore mine 3");
    let g = build(false).game();
    assert_eq!(get(&g, Good::Ore), 1 + 3, "no donkey, no ore");
}

/// E.3 / E.7 `builder`: 1 stone, 2 points; a furnishing may be paid with 1 wood and/or 1 stone
/// replaced by ore (the `pay` map), never more.
#[test]
fn e_builder_lets_ore_replace_one_wood_and_one_stone() {
    let cc = twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]));
    let build = |pay: Value| {
        Script::new(2)
            .round(vec![place(0, "supplies", json!([])), housework("builder", [2, 3])])
            // Round 2: Logging 4 wood (→ 5), Excavation 2 stone and two caverns.
            .round(vec![place(0, "logging", json!([])), place(0, "excavation", json!([cc.clone()]))])
            // Round 3: Ore mining 4 ore (→ 5), then a dwelling (4 wood 3 stone).
            .round(vec![
                place(0, "ore_mining", json!([])),
                place(0, "housework", json!([{ "do": "furnish", "tile": "dwelling", "at": [1, 3], "pay": pay }])),
            ])
    };
    let (before, after) = build(json!({ "wood": 3, "stone": 2, "ore": 2 })).around("housework");
    assert_eq!(goods(&before, &[Good::Wood, Good::Stone, Good::Ore]), [5, 2, 5]);
    assert_eq!(goods(&after, &[Good::Wood, Good::Stone, Good::Ore]), [2, 0, 3]);
    assert_eq!(score(after.player(0)).tiles_pastures_mines, 2 + 3);
    // Two wood replaced: refused.
    let bad = build(json!({ "wood": 2, "stone": 3, "ore": 2 }));
    assert_eq!(bad.rejects(E::InsufficientGoods)["space"], "housework");
    // Without a Builder, `pay` is not allowed at all.
    let e = json!([
        place(0, "supplies", json!([])),
        place(1, "logging", json!([])),
        place(0, "housework", json!([{ "do": "furnish", "tile": "carpenter", "at": [2, 3], "pay": { "stone": 1 } }]))
    ]);
    rejects(2, e, 2, E::ActionNotAllowed);
}

/// E.3 `trader`: 1 wood, 2 points; any time, 2 gold → 1 wood 1 stone 1 ore, repeatable.
#[test]
fn e_trader_trades_2_gold_for_wood_stone_and_ore() {
    let s = Script::new(2).round(vec![place(0, "supplies", json!([])), housework("trader", [2, 3])]);
    let g = s.clone().then(free(0, json!([use_tile("trader")]))).game();
    // Supplies: 1 wood 1 stone 1 ore 2 gold; the Trader took the wood; the trade: −2 gold.
    assert_eq!(goods(&g, &[Good::Gold, Good::Wood, Good::Stone, Good::Ore]), [0, 1, 2, 2]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
    let twice = s.clone().then(free(0, json!([{ "do": "use", "tile": "trader", "times": 2 }])));
    twice.rejects(E::InsufficientGoods);
    // E.7: usable after the last harvest, before scoring (a `free` entry at the end of the
    // log). Two players: round 12 is the "field or breeding" event.
    let mut end = s.quiet(10);
    for p in 0..2 {
        end = end.then(json!({ "type": "harvest_choice", "player": p, "phase": "field" }));
    }
    let before = end.game();
    assert_eq!(before.phase(), &chronicle_caverna::Phase::Over);
    let r = end.then(free(0, json!([use_tile("trader")]))).replay();
    assert_eq!(r.status, Status::Complete);
    let after = r.game.unwrap();
    for (good, delta) in [(Good::Wood, 1), (Good::Stone, 1), (Good::Ore, 1)] {
        assert_eq!(get(&after, good), get(&before, good) + delta, "{good:?}");
    }
    assert_eq!(get(&after, Good::Gold) + 2, get(&before, Good::Gold));
    let total = |g: &Game| score(g.player(0)).total;
    assert_eq!(total(&after), total(&before) - 2, "2 gold spent on goods worth nothing");
}

/// E.7 `trader` and `spare_part_storage`: owning one, the other must be placed on top of it;
/// the covered tile gives no use and no points and is not available again.
#[test]
fn e_trader_and_spare_part_storage_stack_and_the_covered_one_is_dead() {
    let ct = twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]));
    let base = rich_start()
        // Round 2: Trader at [2, 3] (→ 3 wood); Drift mining 2 stone and a cavern at [1, 3].
        .round(vec![housework("trader", [2, 3]), place(0, "drift_mining", json!([ct]))]);
    let beside = base.clone().round(vec![housework("spare_part_storage", [1, 3]), PASS]);
    assert_eq!(beside.rejects(E::FurnishingCell)["space"], "housework");
    let s = base.round(vec![housework("spare_part_storage", [2, 3]), PASS]);
    let g = s.game();
    assert_eq!(at(&g, 2, 3), Some(Tile::Furnished { tile: Furnishing::SparePartStorage, under: Under::Cavern }));
    assert!(!g.player(0).owns(Furnishing::Trader));
    assert!(!g.is_available(Furnishing::Trader), "the covered Trader does not return");
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 0, "no points for the covered Trader");
    s.clone().then(free(0, json!([use_tile("trader")]))).rejects(E::TileNotUsable);
    // 1 wood (+1 from player 0's pass on Wood gathering) 3 stone 1 ore: one set for 2 gold
    // (2 from Supplies → 4).
    let g = s.then(free(0, json!([use_tile("spare_part_storage")]))).game();
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone, Good::Ore, Good::Gold]), [1, 2, 0, 4]);
    // The other way round: a Trader must cover a Spare part storage.
    let s = rich_start().round(vec![
        housework("spare_part_storage", [2, 3]),
        place(0, "drift_mining", json!([twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]))])),
    ]);
    assert_eq!(
        s.clone().round(vec![housework("trader", [1, 3]), PASS]).rejects(E::FurnishingCell)["space"],
        "housework"
    );
    let g = s.round(vec![housework("trader", [2, 3]), PASS]).game();
    assert!(g.player(0).owns(Furnishing::Trader) && !g.player(0).owns(Furnishing::SparePartStorage));
}

/// E.6 `spare_part_storage`: 2 wood, 0 points; any time, 1 wood 1 stone 1 ore → 2 gold.
#[test]
fn e_spare_part_storage_trades_a_set_for_2_gold() {
    let s = rich_start().round(vec![housework("spare_part_storage", [2, 3]), PASS]);
    let g = s.clone().then(free(0, json!([use_tile("spare_part_storage")]))).game();
    // 4 wood − 2 + 1 (player 0's pass on Wood gathering) − 1 = 2; the stone and ore of
    // Supplies are spent; 2 + 2 gold.
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone, Good::Ore, Good::Gold]), [2, 0, 0, 4]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 0);
    assert_eq!(bonus(g.player(0), Furnishing::SparePartStorage), 0, "no bonus formula");
    s.then(free(0, json!([{ "do": "use", "tile": "spare_part_storage", "times": 2 }]))).rejects(E::InsufficientGoods);
}

/// E.3 `wood_supplier`: 1 stone, 2 points; 1 wood at the start of each of the next 7 rounds.
#[test]
fn e_wood_supplier_gives_wood_for_the_next_7_rounds() {
    let s = Script::new(2).round(vec![place(0, "supplies", json!([])), housework("wood_supplier", [2, 3])]);
    let (_, g) = s.around("housework");
    let promised: Vec<(u8, Good)> = (2..=8).map(|r| (r, Good::Wood)).collect();
    assert_eq!(*g.player(0).future, promised);
    assert_eq!(get(&g, Good::Wood), 1);
    // Round 2 starts with the first wood.
    let g = s.game();
    assert_eq!((g.round(), get(&g, Good::Wood)), (2, 2));
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
}

/// E.3 `stone_supplier`: 1 wood, 1 point; 1 stone at the start of each of the next 5 rounds;
/// stone promised for rounds after the last round is lost (E.3 BGA detail).
#[test]
fn e_stone_supplier_gives_stone_for_5_rounds_and_loses_the_rest() {
    let s = Script::new(3).round(vec![place(0, "logging", json!([])), housework("stone_supplier", [2, 3])]);
    let (_, g) = s.around("housework");
    let promised: Vec<(u8, Good)> = (2..=6).map(|r| (r, Good::Stone)).collect();
    assert_eq!(*g.player(0).future, promised);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 1);
    // Built in round 10 of 12: only rounds 11 and 12 remain.
    let late = Script::new(3).quiet(9).round(vec![place(0, "logging", json!([])), housework("stone_supplier", [2, 3])]);
    let (before, after) = late.around("housework");
    assert_eq!(before.round(), 10);
    assert_eq!(*after.player(0).future, vec![(11, Good::Stone), (12, Good::Stone)]);
    // Round 11 starts with one of them, round 12 with the other; nothing is left over.
    let g = late.game();
    assert_eq!(g.round(), 11);
    assert_eq!(*g.player(0).future, vec![(12, Good::Stone)]);
    assert_eq!(get(&g, Good::Stone), get(&after, Good::Stone) + 1);
    let g = late.quiet(1).game();
    assert_eq!(g.round(), 12);
    assert!(g.player(0).future.is_empty());
}

/// E.3 `ruby_supplier`: 2 wood 2 stone, 2 points; 1 ruby at the start of each of the next 4
/// rounds.
#[test]
fn e_ruby_supplier_gives_a_ruby_for_the_next_4_rounds() {
    let s = rich_start().round(vec![place(0, "drift_mining", json!([])), housework("ruby_supplier", [2, 3])]);
    let (_, g) = s.around("housework");
    let promised: Vec<(u8, Good)> = (3..=6).map(|r| (r, Good::Ruby)).collect();
    assert_eq!(*g.player(0).future, promised);
    // 4 wood 3 stone − 2 wood 2 stone.
    assert_eq!(goods(&g, &[Good::Wood, Good::Stone, Good::Ruby]), [2, 1, 0]);
    let g = s.game();
    assert_eq!((g.round(), get(&g, Good::Ruby)), (3, 1));
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
}

/// E.3 `dog_school`: free, 0 points; +1 wood for each dog gained afterwards (Housework's order
/// is free: build the school first, then take the dog).
#[test]
fn e_dog_school_gives_a_wood_per_new_dog() {
    let school = furnish("dog_school", [2, 3]);
    let g = ok(2, json!([place(0, "housework", json!([school, { "do": "dog" }]))])).game.unwrap();
    assert_eq!(goods(&g, &[Good::Dog, Good::Wood]), [1, 1]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 0);
    let g = ok(2, json!([place(0, "housework", json!([{ "do": "dog" }, school]))])).game.unwrap();
    assert_eq!(goods(&g, &[Good::Dog, Good::Wood]), [1, 0], "the dog came before the school");
    // A dog bought with a ruby counts too (4 players: the starting player's ruby).
    let e = json!([
        place(0, "housework", json!([furnish("dog_school", [2, 3])])),
        place(1, "logging", json!([])),
        place(2, "clearing", json!([])),
        place(3, "sustenance", json!([])),
        place(0, "starting_player", json!([{ "do": "ruby_trade", "goods": { "dog": 1 } }])),
    ]);
    let g = ok(4, e).game.unwrap();
    assert_eq!(goods(&g, &[Good::Dog, Good::Wood, Good::Ruby]), [1, 1, 0]);
}

/// E.3 `quarry`: 1 wood, 2 points; +1 stone for each newborn donkey, not for donkeys gained
/// otherwise.
#[test]
fn e_quarry_gives_stone_for_newborn_donkeys_only() {
    let s = Script::new(2)
        .round(vec![place(0, "logging", json!([])), housework("quarry", [2, 3])])
        // Round 2: tunnels at [1, 4] and [0, 4] (2 + 2 stone).
        .round(vec![
            place(0, "drift_mining", json!([twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]))])),
            place(0, "excavation", json!([twin(json!([[0, 4], [0, 3]]), json!(["tunnel", "cavern"]))])),
        ])
        // Round 3: an ore mine: room for a third donkey.
        .round(vec![
            place(
                0,
                "ore_mine_construction",
                json!([{ "do": "ore_mine", "cells": [[1, 4], [0, 4]], "kinds": ["ore_mine", "deep_tunnel"] }]),
            ),
            PASS,
        ])
        .quiet(2)
        // Round 6 (green token): Donkey farming's 2 donkeys.
        .round(vec![place(0, "donkey_farming", json!([])), PASS]);
    let (before, after) = s.around("donkey_farming");
    assert_eq!(get(&after, Good::Donkey), 2);
    assert_eq!(get(&after, Good::Stone), get(&before, Good::Stone), "donkeys from a space: no stone");
    assert_eq!(get(&before, Good::Stone), 4);
    // The harvest of round 6: one newborn donkey (entry dwelling 2 + ore mine 1) → +1 stone.
    let g = s.game();
    assert_eq!(g.round(), 7);
    assert_eq!(goods(&g, &[Good::Donkey, Good::Stone]), [3, 5]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2 + 3);
}

/// E.3 `seam`: 2 wood, 1 point; +1 ore for every stone received, from any source: action
/// spaces, fixed goods, the Trader and suppliers.
#[test]
fn e_seam_gives_ore_for_every_stone_from_any_source() {
    let s = Script::new(2)
        // Round 1: Logging 3 wood; the Seam costs 2.
        .round(vec![place(0, "logging", json!([])), housework("seam", [2, 3])])
        // Round 2: Drift mining 2 stone (+2 ore) and a cavern at [1, 3]; Supplies 1 stone
        // (+1 ore) and its own 1 ore.
        .round(vec![
            place(0, "drift_mining", json!([twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]))])),
            place(0, "supplies", json!([])),
        ])
        // Round 3: a Trader at [1, 3], used at once (2 gold → wood, stone (+1 ore), ore);
        // Excavation 3 stone (+3 ore) and caverns at [0, 3], [0, 4].
        .round(vec![
            place(0, "housework", json!([furnish("trader", [1, 3]), use_tile("trader")])),
            place(0, "excavation", json!([twin(json!([[0, 3], [0, 4]]), json!(["cavern", "cavern"]))])),
        ])
        // Round 4: a Stone supplier: its first stone arrives at the start of round 5.
        .round(vec![housework("stone_supplier", [0, 3]), PASS]);
    let (_, g) = s.around("supplies");
    assert_eq!(goods(&g, &[Good::Stone, Good::Ore]), [3, 2 + 1 + 1]);
    // Round 3: player 0's Housework, player 1's turn, player 0's Excavation.
    let g = s.upto(s.index_of("excavation") - 1);
    assert_eq!(goods(&g, &[Good::Stone, Good::Ore]), [4, 4 + 2]);
    let (_, g) = s.around("excavation");
    assert_eq!(goods(&g, &[Good::Stone, Good::Ore]), [7, 9]);
    let g = s.game();
    assert_eq!(g.round(), 5);
    assert_eq!(goods(&g, &[Good::Stone, Good::Ore]), [8, 10]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 1 + 2 + 1, "Seam, Trader, Stone supplier");
}

// ---------------------------------------------------------------------------------------------
// E.4 Food caves
// ---------------------------------------------------------------------------------------------

/// E.4 `slaughtering_cave`: 2 wood 2 stone, 2 points; +1 food per farm animal converted (2
/// donkeys together: 3 + 2 = 5).
#[test]
fn e_slaughtering_cave_adds_a_food_per_animal_converted() {
    let s = rich_start()
        .round(vec![place(0, "drift_mining", json!([])), housework("slaughtering_cave", [2, 3])])
        // Round 3: Sheep farming's 2 sheep converted at once: 2 × (1 + 1).
        .round(vec![place(0, "sheep_farming", json!([{ "do": "convert", "goods": { "sheep": 2 } }])), PASS]);
    let (before, after) = s.around("sheep_farming");
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 4);
    assert_eq!(get(&after, Good::Sheep), 0);
    let p = after.player(0);
    let value = |pairs: &[(Good, u32)]| conversion::food_value(p, &Goods::of(pairs)).unwrap();
    assert_eq!(value(&[(Good::Donkey, 2)]), 5);
    assert_eq!(value(&[(Good::Donkey, 1)]), 2);
    assert_eq!(value(&[(Good::Donkey, 3)]), 3 + 1 + 3);
    assert_eq!(value(&[(Good::Boar, 1)]), 3);
    assert_eq!(value(&[(Good::Cattle, 1)]), 4);
    assert_eq!(value(&[(Good::Grain, 1), (Good::Vegetable, 1)]), 3, "crops unchanged");
    assert!(conversion::food_value(p, &Goods::of(&[(Good::Dog, 1)])).is_err(), "dogs never");
    assert_eq!(score(p).tiles_pastures_mines, 2);
}

/// E.4 `cooking_cave`: 2 stone, 2 points; 1 grain + 1 vegetable → 5 food, any time.
#[test]
fn e_cooking_cave_turns_grain_and_vegetable_into_5_food() {
    let s = Script::new(3)
        // Round 1: Supplies 1 stone, Drift mining 1 stone.
        .round(vec![place(0, "supplies", json!([])), place(0, "drift_mining", json!([]))])
        // Round 2: the cave; Forest exploration (3 players): wood and 1 vegetable.
        .round(vec![housework("cooking_cave", [2, 3]), place(0, "forest_exploration", json!([]))])
        // Round 3: Sustenance's grain, then the cave.
        .round(vec![json!([place(0, "sustenance", json!([])), free(0, json!([use_tile("cooking_cave")]))]), PASS]);
    let i = s.index_of("sustenance");
    let (before, after) = (s.upto(i + 1), s.upto(i + 2));
    assert_eq!(goods(&before, &[Good::Grain, Good::Vegetable]), [1, 1]);
    assert_eq!(goods(&after, &[Good::Grain, Good::Vegetable]), [0, 0]);
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 5);
    assert_eq!(score(after.player(0)).tiles_pastures_mines, 2);
    s.then(free(0, json!([use_tile("cooking_cave")]))).rejects(E::InsufficientGoods);
}

/// E.4 `working_cave`: 1 wood 1 stone, 2 points; at a feeding, one dwarf is fed with 1 wood (or
/// 1 stone or 2 ore) instead of food; only inside a `feed` entry, once per feeding.
#[test]
fn e_working_cave_feeds_one_dwarf_inside_a_feed_entry() {
    let s = Script::new(2)
        // Round 1: Supplies (1 wood 1 stone 1 food → 2 food) pays the cave.
        .round(vec![place(0, "supplies", json!([])), housework("working_cave", [2, 3])])
        .round(vec![place(0, "logging", json!([])), place(0, "drift_mining", json!([]))])
        .round(vec![place(0, "excavation", json!([])), place(0, "ore_mining", json!([]))]);
    let feed = |actions: Value| json!({ "type": "feed", "player": 0, "actions": actions });
    let pay = |good: &str| json!({ "do": "use", "tile": "working_cave", "pay": good });
    // Round 3 feeding: 2 dwarfs cost 4; one is fed with a wood, the other with the 2 food.
    let g = s.clone().then(feed(json!([pay("wood")]))).game();
    assert_eq!((g.round(), g.player(0).begging, get(&g, Good::Food)), (4, 0, 0));
    assert_eq!(get(&g, Good::Wood), 4 - 1);
    let g = s.clone().game();
    assert_eq!(g.player(0).begging, 2, "without it: 4 due, 2 food");
    s.clone().then(feed(json!([pay("wood"), pay("stone")]))).rejects(E::TileNotUsable);
    s.clone().then(free(0, json!([pay("wood")]))).rejects(E::TileNotUsable);
    let during_work = rich_start()
        .round(vec![place(0, "drift_mining", json!([])), housework("working_cave", [2, 3])])
        .then(free(0, json!([pay("wood")])));
    during_work.rejects(E::TileNotUsable);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
}

/// E.4 `mining_cave`: 3 wood 2 stone, 2 points; each feeding costs 1 food less per donkey in a
/// mine.
#[test]
fn e_mining_cave_feeds_for_each_donkey_in_a_mine() {
    let build = |with: bool| {
        // The comparison game takes Logging instead (no food either).
        let r3 = if with { housework("mining_cave", [2, 3]) } else { place(0, "logging", json!([])) };
        rich_start()
            .round(vec![
                place(0, "drift_mining", json!([twin(json!([[1, 3], [1, 4]]), json!(["cavern", "tunnel"]))])),
                place(0, "excavation", json!([twin(json!([[0, 4], [0, 3]]), json!(["tunnel", "cavern"]))])),
            ])
            .round(vec![
                r3,
                place(0, "ore_mine_construction", json!([{ "do": "ore_mine", "cells": [[1, 4], [0, 4]], "kinds": ["ore_mine", "deep_tunnel"] }])),
            ])
            // Round 4: Ruby mining's 2 rubies: a donkey and 2 food.
            .round(vec![
                place(0, "ruby_mining", json!([{ "do": "ruby_trade", "goods": { "donkey": 1 } }, { "do": "convert", "goods": { "ruby": 1 } }])),
                place(0, "drift_mining", json!([])),
            ])
    };
    // Round 3: 4 due, 2 food → 2 begging. Round 4: 1 food per dwarf = 2, less 1 for the donkey
    // in the ore mine → 1 of the 2 food is left.
    let g = build(true).game();
    assert_eq!(g.round(), 5);
    assert_eq!((get(&g, Good::Food), g.player(0).begging), (1, 2));
    assert_eq!(harvest::food_due(g.player(0), false, 0), 4 - 1);
    assert_eq!(harvest::food_due(g.player(0), true, 0), 2 - 1);
    let g = build(false).game();
    assert_eq!((get(&g, Good::Food), g.player(0).begging), (0, 2));
    assert_eq!(score(build(true).game().player(0)).tiles_pastures_mines, 2 + 3);
}

/// E.4 `breeding_cave`: 1 grain 1 stone, 2 points; +1 food per newborn farm animal.
#[test]
fn e_breeding_cave_gives_a_food_per_newborn() {
    let build = |with: bool| {
        // The comparison game takes Ore mining instead (no food either).
        let r2 = if with { housework("breeding_cave", [2, 3]) } else { place(0, "ore_mining", json!([])) };
        let mf = twin(json!([[3, 2], [3, 1]]), json!(["meadow", "field"]));
        Script::new(2)
            // Round 1: Sustenance (1 food, 1 grain), Supplies (1 stone, 1 food).
            .round(vec![place(0, "sustenance", json!([])), place(0, "supplies", json!([]))])
            // Round 2: the cave; a meadow at [3, 2] (the field on [3, 1] gives 1 food).
            .round(vec![r2, place(0, "clearing", json!([mf]))])
            // Round 3: stone, then a stable on the meadow and the 2 sheep.
            .round(vec![
                place(0, "drift_mining", json!([])),
                place(0, "sheep_farming", json!([{ "do": "stable", "at": [3, 2] }])),
            ])
    };
    // Round 3 harvest: 4 food paid; a lamb (room: entry dwelling 2 + stable on meadow 1) → +1.
    let g = build(true).game();
    assert_eq!(g.round(), 4);
    assert_eq!((get(&g, Good::Sheep), get(&g, Good::Food), g.player(0).begging), (3, 1, 0));
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 2);
    let g = build(false).game();
    assert_eq!((get(&g, Good::Sheep), get(&g, Good::Food)), (3, 0));
}

/// E.4 `breeding_cave`: when all four farm-animal types breed, 5 food instead of 4. Two
/// players, six rounds: sheep in a large pasture, donkeys in a small pasture with a stable,
/// boars in the entry dwelling plus a forest stable, cattle in the Breakfast room.
#[test]
fn e_breeding_cave_gives_5_food_when_all_four_types_are_born() {
    let mf = |a: [i8; 2], b: [i8; 2]| twin(json!([a, b]), json!(["meadow", "field"]));
    let cc = twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]));
    let sheep_farming = json!([
        { "do": "fence", "cells": [[3, 2], [2, 2]] },
        { "do": "fence", "cells": [[2, 1]] },
        { "do": "stable", "at": [2, 1] },
        { "do": "release", "animals": { "sheep": 2 } },
    ]);
    let s = Script::new(2)
        // Round 1: meadows [3, 2] (Clearing, 1 wood) and [2, 2] (Sustenance, 1 grain).
        .round(vec![
            place(0, "clearing", json!([mf([3, 2], [3, 1])])),
            place(0, "sustenance", json!([mf([2, 2], [1, 2])])),
        ])
        // Round 2: meadow [2, 1], its field on the boar preserve [2, 0] (+1 boar); caverns.
        .round(vec![place(0, "slash_and_burn", json!([mf([2, 1], [2, 0])])), place(0, "excavation", json!([cc]))])
        // Round 3: the Breeding cave (1 grain 1 stone); Logging's 5 wood.
        .round(vec![housework("breeding_cave", [2, 3]), place(0, "logging", json!([]))])
        // Round 4: the Breakfast room (1 wood); Supplies (1 wood 1 stone …).
        .round(vec![housework("breakfast_room", [1, 3]), place(0, "supplies", json!([]))])
        // Round 5: 5 food; a large and a small pasture (6 wood) with a stable; 2 of 4 sheep kept.
        .round(vec![place(0, "starting_player", json!([])), place(0, "sheep_farming", sheep_farming)])
        // Round 6: 4 rubies buy a boar and 2 cattle; 2 donkeys and a stable on the forest [0, 0].
        .round(vec![
            place(0, "ruby_mining", json!([{ "do": "ruby_trade", "goods": { "boar": 1, "cattle": 2 } }])),
            place(0, "donkey_farming", json!([{ "do": "stable", "at": [0, 0] }])),
        ]);
    let (_, before) = s.around("donkey_farming");
    // The round-5 harvest already gave a lamb (+1 food): 3 sheep.
    assert_eq!(before.player(0).animals(), [3, 2, 2, 2]);
    let food = get(&before, Good::Food);
    // Round 6 harvest (green): 4 food due, then four newborns: 5 food.
    let g = s.game();
    assert_eq!(g.round(), 7);
    assert_eq!(g.player(0).animals(), [4, 3, 3, 3]);
    let paid = food.min(4);
    assert_eq!(get(&g, Good::Food), food - paid + 5);
}

/// E.4 `peaceful_cave`: 2 wood 2 stone, 2 points; any time, a dwarf's weapon is given up for
/// food equal to its strength.
#[test]
fn e_peaceful_cave_trades_a_weapon_for_its_strength_in_food() {
    let give_up = |d: u32| free(0, json!([{ "do": "use", "tile": "peaceful_cave", "dwarf": d }]));
    let s = Script::new(2)
        // Round 1: 2 ore, then a strength-2 weapon for dwarf 1.
        .round(vec![
            place(0, "starting_player", json!([])),
            place(0, "blacksmithing", json!([{ "do": "forge", "strength": 2 }])),
        ])
        // Round 2: Logging 4 wood, Drift mining 2 stone.
        .round(vec![place(0, "logging", json!([])), place(0, "drift_mining", json!([]))])
        .round(vec![json!([housework("peaceful_cave", [2, 3]), give_up(1)]), PASS]);
    let i = s.index_of("housework");
    let (before, after) = (s.upto(i + 1), s.upto(i + 2));
    assert_eq!(goods(&before, &[Good::Wood, Good::Stone]), [2, 0]);
    assert_eq!(before.player(0).dwarfs[1].weapon, Some(2));
    assert_eq!(after.player(0).dwarfs[1].weapon, None);
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 2);
    assert_eq!(score(after.player(0)).tiles_pastures_mines, 2);
    s.then(give_up(0)).rejects(E::WeaponRequired);
}

// ---------------------------------------------------------------------------------------------
// E.5 Parlors
// ---------------------------------------------------------------------------------------------

/// E.5 `weaving_parlor`: 2 wood 1 stone; +1 food per sheep when built; bonus 1 per 2 sheep.
#[test]
fn e_weaving_parlor_pays_food_per_sheep_and_scores_per_two_sheep() {
    let s = rich_start()
        .quiet(1)
        // Round 3: Sheep farming's 2 sheep, then the parlor: +2 food.
        .round(vec![place(0, "sheep_farming", json!([])), housework("weaving_parlor", [2, 3])]);
    let (before, after) = s.around("housework");
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 2);
    assert_eq!(
        goods(&after, &[Good::Wood, Good::Stone]),
        [get(&before, Good::Wood) - 2, get(&before, Good::Stone) - 1]
    );
    assert_eq!(score(after.player(0)).bonus_parlors_storages_chambers, 1);
    let mut p = fresh_player();
    set(&mut p, (2, 3), Furnishing::WeavingParlor);
    for (sheep, b) in [(0, 0), (1, 0), (3, 1), (8, 4)] {
        p.supply = Goods::one(Good::Sheep, sheep);
        assert_eq!(bonus(&p, Furnishing::WeavingParlor), b, "{sheep} sheep");
    }
    assert_eq!(score(&p).tiles_pastures_mines, 0);
}

/// E.5 `milking_parlor`: 2 wood 2 stone; +1 food per cattle when built; bonus 1 per cattle.
#[test]
fn e_milking_parlor_pays_food_per_cattle_and_scores_per_cattle() {
    let cattle = json!([{ "do": "ruby_trade", "goods": { "cattle": 1 } }]);
    let s = Script::new(4)
        // Round 1: the starting player's ruby and food buy a cattle; Logging 3 wood.
        .round(vec![place(0, "starting_player", cattle), place(0, "logging", json!([]))])
        // Round 2: Drift mining 4 stone; the parlor: +1 food.
        .round(vec![place(0, "drift_mining", json!([])), housework("milking_parlor", [2, 3])]);
    let (before, after) = s.around("housework");
    assert_eq!(get(&after, Good::Cattle), 1);
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 1);
    assert_eq!(score(after.player(0)).bonus_parlors_storages_chambers, 1);
    let mut p = fresh_player();
    set(&mut p, (2, 3), Furnishing::MilkingParlor);
    p.supply = Goods::one(Good::Cattle, 5);
    assert_eq!(bonus(&p, Furnishing::MilkingParlor), 5);
}

/// E.5 `state_parlor`: 5 gold 3 stone; +2 food per orthogonally adjacent dwelling when built
/// (the entry dwelling counts); bonus 4 per adjacent dwelling.
#[test]
fn e_state_parlor_pays_and_scores_per_adjacent_dwelling() {
    let cc = twin(json!([[2, 4], [1, 4]]), json!(["cavern", "cavern"]));
    let s = Script::new(2)
        // Round 1: Supplies, Logging: 4 wood 1 stone 2 gold.
        .round(vec![place(0, "supplies", json!([])), place(0, "logging", json!([]))])
        // Round 2: Supplies (4 gold, 2 stone); Excavation 2 stone and caverns [2, 4], [1, 4].
        .round(vec![place(0, "supplies", json!([])), place(0, "excavation", json!([cc]))])
        // Round 3: a dwelling at [2, 4]; Drift mining 3 stone.
        .round(vec![housework("dwelling", [2, 4]), place(0, "drift_mining", json!([]))])
        // Round 4: Supplies (6 gold); the parlor at [2, 3], between the entry dwelling [3, 3]
        // and the dwelling [2, 4].
        .round(vec![place(0, "supplies", json!([])), housework("state_parlor", [2, 3])]);
    let (before, after) = s.around("housework");
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 4);
    assert_eq!(goods(&before, &[Good::Gold, Good::Stone]), [6, 5]);
    assert_eq!(goods(&after, &[Good::Gold, Good::Stone]), [1, 2]);
    let sc = score(after.player(0));
    assert_eq!(sc.bonus_parlors_storages_chambers, 8);
    assert_eq!(sc.tiles_pastures_mines, 3, "the dwelling; the parlor has no printed value");
    // Constructed: all four neighbours dwellings → 16.
    let mut p = fresh_player();
    set(&mut p, (2, 4), Furnishing::StateParlor);
    for c in [(1, 4), (2, 3), (2, 5)] {
        set(&mut p, c, Furnishing::MixedDwelling);
    }
    p.board.set_tile(Coord::at(3, 4), Tile::Furnished { tile: Furnishing::CoupleDwelling, under: Under::Cavern });
    assert_eq!(bonus(&p, Furnishing::StateParlor), 16);
}

/// E.5 / E.7 `hunting_parlor`: 2 wood, 1 point; any time, 2 boars → 2 gold + 2 food; the
/// Slaughtering cave adds nothing to this trade (five players, boars from the Weekly market).
#[test]
fn e_hunting_parlor_trades_two_boars_without_the_slaughtering_bonus() {
    let cc = twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]));
    let s = Script::new(5)
        // Round 1: Logging 3 wood; Excavation 2 stone and caverns [1, 3], [0, 3].
        .round(vec![place(0, "logging", json!([])), place(0, "excavation", json!([cc]))])
        // Round 2: Slaughtering cave (2 wood 2 stone); market: a boar and a wood (1 gold left).
        .round(vec![
            housework("slaughtering_cave", [2, 3]),
            place(0, "weekly_market", json!([{ "do": "buy", "goods": ["boar", "wood"] }])),
        ])
        // Round 3: the parlor; market: a second boar (3 gold), then the trade.
        .round(vec![
            housework("hunting_parlor", [1, 3]),
            place(0, "weekly_market", json!([{ "do": "buy", "goods": ["boar"] }, use_tile("hunting_parlor")])),
        ]);
    let (before, after) = s.around("weekly_market");
    assert_eq!(goods(&before, &[Good::Boar, Good::Gold]), [1, 1]);
    assert_eq!(goods(&after, &[Good::Boar, Good::Gold]), [0, 1 + 4 - 2 + 2]);
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 2, "not 2 + 2 × 1");
    assert_eq!(score(after.player(0)).tiles_pastures_mines, 2 + 1);
    assert_eq!(bonus(after.player(0), Furnishing::HuntingParlor), 0);
}

/// E.5 `beer_parlor`: 2 wood, 3 points; any time, 2 grain → 3 gold or 4 food.
#[test]
fn e_beer_parlor_brews_3_gold_or_4_food_from_2_grain() {
    let s = Script::new(2)
        // Round 1: Logging 3 wood, Sustenance 1 grain; round 2: the parlor, another grain.
        .round(vec![place(0, "logging", json!([])), place(0, "sustenance", json!([]))])
        .round(vec![housework("beer_parlor", [2, 3]), place(0, "sustenance", json!([]))]);
    let brew = |for_: &str| free(0, json!([{ "do": "use", "tile": "beer_parlor", "for": for_ }]));
    let g = s.clone().then(brew("gold")).game();
    assert_eq!(goods(&g, &[Good::Grain, Good::Gold]), [0, 3]);
    assert_eq!(score(g.player(0)).tiles_pastures_mines, 3);
    let g0 = s.game();
    let g = s.clone().then(brew("food")).game();
    assert_eq!(get(&g, Good::Food), get(&g0, Good::Food) + 4);
    s.clone()
        .then(free(0, json!([{ "do": "use", "tile": "beer_parlor", "for": "gold", "times": 2 }])))
        .rejects(E::InsufficientGoods);
    s.then(free(0, json!([use_tile("beer_parlor")]))).rejects(E::Malformed);
}

/// E.5 `blacksmithing_parlor`: 3 ore, 2 points; any time, 1 ruby + 1 ore → 2 gold + 1 food.
#[test]
fn e_blacksmithing_parlor_trades_ruby_and_ore_for_gold_and_food() {
    let s = Script::new(2)
        // Round 1: 2 ore (starting player) + 1 ore (Supplies).
        .round(vec![place(0, "starting_player", json!([])), place(0, "supplies", json!([]))])
        // Round 2: the parlor (3 ore); Ore mining 3 ore.
        .round(vec![housework("blacksmithing_parlor", [2, 3]), place(0, "ore_mining", json!([]))])
        // Round 3: Ruby mining's first ruby (two players), traded at once.
        .round(vec![place(0, "ruby_mining", json!([use_tile("blacksmithing_parlor")])), PASS]);
    let (before, after) = s.around("ruby_mining");
    assert_eq!(goods(&before, &[Good::Ore, Good::Ruby, Good::Gold]), [3, 0, 2]);
    assert_eq!(goods(&after, &[Good::Ore, Good::Ruby, Good::Gold]), [2, 0, 4]);
    assert_eq!(get(&after, Good::Food), get(&before, Good::Food) + 1);
    assert_eq!(score(after.player(0)).tiles_pastures_mines, 2);
}

// ---------------------------------------------------------------------------------------------
// E.6 Storages and chambers (bonus formulas on constructed players, G.1 row 9)
// ---------------------------------------------------------------------------------------------

fn with_tile(tile: Furnishing) -> Player {
    let mut p = fresh_player();
    set(&mut p, (2, 3), tile);
    p
}

/// E.6 `stone_storage`: +1 per stone in supply.
#[test]
fn e_stone_storage_scores_one_per_stone() {
    let mut p = with_tile(Furnishing::StoneStorage);
    for (stone, b) in [(0, 0), (1, 1), (7, 7)] {
        p.supply = Goods::one(Good::Stone, stone);
        assert_eq!(bonus(&p, Furnishing::StoneStorage), b);
        assert_eq!(score(&p).bonus_parlors_storages_chambers, b);
    }
    // A real build: 3 wood 1 ore from Logging + Supplies.
    let (_, g) = rich_start().round(vec![housework("stone_storage", [2, 3]), PASS]).around("housework");
    assert_eq!(goods(&g, &[Good::Wood, Good::Ore]), [1, 0]);
}

/// E.6 `ore_storage`: +1 per 2 ore, rounded down.
#[test]
fn e_ore_storage_scores_one_per_two_ore() {
    let mut p = with_tile(Furnishing::OreStorage);
    for (ore, b) in [(0, 0), (1, 0), (2, 1), (5, 2)] {
        p.supply = Goods::one(Good::Ore, ore);
        assert_eq!(bonus(&p, Furnishing::OreStorage), b, "{ore} ore");
    }
}

/// E.6 `main_storage`: +2 per yellow tile owned, itself included; green tiles do not count.
#[test]
fn e_main_storage_scores_two_per_yellow_tile_itself_included() {
    let mut p = with_tile(Furnishing::MainStorage);
    assert_eq!(bonus(&p, Furnishing::MainStorage), 2);
    set(&mut p, (1, 3), Furnishing::BeerParlor);
    set(&mut p, (1, 4), Furnishing::WritingChamber);
    set(&mut p, (0, 3), Furnishing::Carpenter);
    set(&mut p, (0, 4), Furnishing::Dwelling);
    assert_eq!(bonus(&p, Furnishing::MainStorage), 2 * 3);
}

/// E.6 `weapon_storage`: +3 per armed dwarf.
#[test]
fn e_weapon_storage_scores_three_per_armed_dwarf() {
    let mut p = with_tile(Furnishing::WeaponStorage);
    p.dwarfs = dwarfs(&[Some(1), Some(14), None]);
    assert_eq!(bonus(&p, Furnishing::WeaponStorage), 6);
    p.dwarfs = dwarfs(&[None, None]);
    assert_eq!(bonus(&p, Furnishing::WeaponStorage), 0);
}

/// E.6 `supplies_storage`: +8 if every dwarf in play is armed (its cost includes 3 food).
#[test]
fn e_supplies_storage_scores_8_when_every_dwarf_is_armed() {
    let mut p = with_tile(Furnishing::SuppliesStorage);
    p.dwarfs = dwarfs(&[Some(3), Some(1), Some(8)]);
    assert_eq!(bonus(&p, Furnishing::SuppliesStorage), 8);
    p.dwarfs = dwarfs(&[Some(3), Some(1), None]);
    assert_eq!(bonus(&p, Furnishing::SuppliesStorage), 0);
    assert_eq!(Furnishing::SuppliesStorage.card().cost.get(Good::Food), 3);
}

/// E.6 `broom_chamber`: +5 with exactly 5 dwarfs, +10 with 6.
#[test]
fn e_broom_chamber_scores_5_with_five_dwarfs_and_10_with_six() {
    let mut p = with_tile(Furnishing::BroomChamber);
    for (n, b) in [(2, 0), (4, 0), (5, 5), (6, 10)] {
        p.dwarfs = dwarfs(&vec![None; n]);
        assert_eq!(bonus(&p, Furnishing::BroomChamber), b, "{n} dwarfs");
    }
}

/// E.6 `treasure_chamber`: +1 per ruby, on top of the ruby row.
#[test]
fn e_treasure_chamber_scores_one_per_ruby() {
    let mut p = with_tile(Furnishing::TreasureChamber);
    p.supply = Goods::one(Good::Ruby, 3);
    let s = score(&p);
    assert_eq!((s.rubies, s.bonus_parlors_storages_chambers), (3, 3));
}

/// E.6 `food_chamber`: +2 per set of 1 grain + 1 vegetable, crops on fields included.
#[test]
fn e_food_chamber_scores_two_per_grain_and_vegetable_set() {
    let mut p = with_tile(Furnishing::FoodChamber);
    p.supply = Goods::of(&[(Good::Grain, 1)]);
    p.board.set_tile(Coord::at(3, 2), Tile::Field { crop: Some((Crop::Vegetable, 2)) });
    p.board.set_tile(Coord::at(3, 1), Tile::Field { crop: Some((Crop::Grain, 3)) });
    // 4 grain, 2 vegetables → 2 sets.
    assert_eq!(bonus(&p, Furnishing::FoodChamber), 4);
    p.supply = Goods::of(&[(Good::Grain, 9)]);
    p.board.set_tile(Coord::at(3, 2), Tile::Field { crop: None });
    assert_eq!(bonus(&p, Furnishing::FoodChamber), 0, "no vegetable, no set");
}

/// E.6 `prayer_chamber`: +8 if no dwarf in play is armed.
#[test]
fn e_prayer_chamber_scores_8_without_armed_dwarfs() {
    let mut p = with_tile(Furnishing::PrayerChamber);
    assert_eq!(bonus(&p, Furnishing::PrayerChamber), 8);
    p.dwarfs = dwarfs(&[None, Some(1)]);
    assert_eq!(bonus(&p, Furnishing::PrayerChamber), 0);
}

/// E.6 `writing_chamber` (H.11): prevents up to 7 points of losses, in the negative rows
/// (missing types, unused spaces, begging), in pad order.
#[test]
fn e_writing_chamber_prevents_up_to_7_points_of_losses() {
    let mut p = with_tile(Furnishing::WritingChamber);
    // All four types present, 21 unused spaces (the chamber's cavern is used anyway).
    p.supply = Goods::of(&[(Good::Sheep, 1), (Good::Donkey, 1), (Good::Boar, 1), (Good::Cattle, 1)]);
    let s = score(&p);
    assert_eq!((s.missing_farm_animal_types, s.unused_spaces), (0, -22 + 7));
    assert_eq!(s.bonus_parlors_storages_chambers, 0);
    // Few losses: nothing to save beyond them; the total never gains.
    let empty: Vec<Coord> = Coord::inner().filter(|&c| p.board.tile(c).is_none()).collect();
    for c in empty {
        p.board.set_tile(c, if c.is_forest() { Tile::Meadow } else { Tile::Cavern });
    }
    p.begging = 1;
    let s = score(&p);
    assert_eq!((s.unused_spaces, s.gold_and_begging), (0, 0), "3 saved of 3");
}

/// E.6 `fodder_chamber`: +1 per 3 farm animals, dogs excluded.
#[test]
fn e_fodder_chamber_scores_one_per_three_farm_animals() {
    let mut p = with_tile(Furnishing::FodderChamber);
    p.supply = Goods::of(&[(Good::Sheep, 4), (Good::Cattle, 4), (Good::Dog, 5)]);
    assert_eq!(bonus(&p, Furnishing::FodderChamber), 2, "8 farm animals");
    p.supply.add(Good::Boar, 1);
    assert_eq!(bonus(&p, Furnishing::FodderChamber), 3);
}
