//! `docs/rules/caverna-reference.md` H: one test (or more) per row of the discrepancies table, named `h<N>_<topic>`.
//! Some rows are also checked elsewhere (`placement.rs`, `tiles.rs`, `expedition.rs`,
//! `scoring.rs`); here each is re-checked with a different case. Rows that say "not a rule"
//! (H.19, H.20) show that the engine does not apply the BGA behaviour.

use crate::common::*;
use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::board::{Coord, Crop, Tile, Under};
use chronicle_caverna::furnishing::{Furnishing, CATALOGUE};
use chronicle_caverna::game::{Dwarf, Game, Harvest, Player};
use chronicle_caverna::goods::{Good, Goods};
use chronicle_caverna::notation::LootItem;
use chronicle_caverna::rules::expedition::min_strength;
use chronicle_caverna::rules::placement::pasture_price;
use chronicle_caverna::rules::tiles::Pasture;
use chronicle_caverna::rules::{housing, weapons};
use chronicle_caverna::scoring::score;
use chronicle_caverna::{ErrorCode as E, Phase, Status};
use serde_json::{json, Value};

fn mf(a: [i8; 2], b: [i8; 2]) -> Value {
    twin(json!([a, b]), json!(["meadow", "field"]))
}

fn ct(a: [i8; 2], b: [i8; 2]) -> Value {
    twin(json!([a, b]), json!(["cavern", "tunnel"]))
}

fn expedition(loot: Value) -> Value {
    json!({ "do": "expedition", "loot": loot })
}

fn get(g: &Game, good: Good) -> u32 {
    g.player(0).supply.get(good)
}

fn fresh_player() -> Player {
    ok(2, json!([])).game.unwrap().players()[0].clone()
}

fn set(p: &mut Player, at: (i8, i8), tile: Furnishing) {
    p.board.set_tile(Coord::at(at.0, at.1), Tile::Furnished { tile, under: Under::Cavern });
}

/// Every row of `docs/rules/caverna-reference.md` H has a test here, named `h<N>_…`.
#[test]
fn every_h_row_has_a_test() {
    let source = include_str!("decisions.rs");
    let missing: Vec<usize> = (1..=24).filter(|n| !source.contains(&format!("fn h{n}_"))).collect();
    assert!(missing.is_empty(), "rows without a test: {missing:?}");
}

// ---------------------------------------------------------------------------------------------
// H.1, H.2: loot strengths 11
// ---------------------------------------------------------------------------------------------

/// Two players. Rounds 1–2: Ore mining and Starting player twice: 8 ore. Round 3: a
/// strength-8 weapon on Blacksmithing and All weapons +1 → strength 10 (+1 for the expedition,
/// +1 for the item, D.1). Round 4: the unarmed dwarf first, then dwarf 0 on Logging.
fn strength_10() -> Script {
    let r12 = || vec![place(0, "ore_mining", json!([])), place(0, "starting_player", json!([]))];
    let forge = json!([{ "do": "forge", "strength": 8 }, expedition(json!([{ "item": "increase_all_weapons" }]))]);
    Script::new(2).round(r12()).round(r12()).round(vec![place(0, "blacksmithing", forge), PASS])
}

fn logging_with(loot: Value) -> Value {
    place(0, "logging", json!([expedition(loot)]))
}

/// H.1: the Meadow loot needs strength 11 (BGA's server accepts 10).
#[test]
fn h1_meadow_loot_needs_strength_11() {
    assert_eq!(min_strength(LootItem::LootMeadow), 11);
    let s = strength_10();
    assert_eq!(s.game().player(0).dwarfs[0].weapon, Some(10));
    let meadow = json!([{ "item": "loot_meadow", "at": [3, 2] }]);
    let at_10 = s.clone().round(vec![PASS, logging_with(meadow.clone())]);
    assert_eq!(at_10.rejects(E::LootNotAllowed)["space"], "logging");
    // Round 4: a wood at strength 10 → 11; round 5: the meadow.
    let at_11 =
        s.round(vec![PASS, logging_with(json!([{ "item": "loot_wood" }]))]).round(vec![PASS, logging_with(meadow)]);
    let (_, g) = at_11.around("logging");
    assert_eq!(g.player(0).board.tile(Coord::at(3, 2)), Some(Tile::Meadow));
    assert_eq!(g.player(0).dwarfs[0].weapon, Some(12));
}

/// H.2: the 2 wood 2 stone Dwelling loot needs strength 11 (not 12).
#[test]
fn h2_dwelling_loot_needs_strength_11() {
    assert_eq!(min_strength(LootItem::LootDwelling2w2s), 11);
    let dwelling = json!([{ "item": "loot_dwelling_2w2s", "tile": "dwelling", "at": [2, 3] }]);
    // Round 4: Drift mining's 4 stone; Logging's 6 wood; strength 10: refused.
    let s = strength_10();
    let at_10 = s.clone().round(vec![place(0, "drift_mining", json!([])), logging_with(dwelling.clone())]);
    assert_eq!(at_10.rejects(E::LootNotAllowed)["space"], "logging");
    // Round 5 at strength 11: the dwelling for 2 wood 2 stone.
    let at_11 = s
        .round(vec![place(0, "drift_mining", json!([])), logging_with(json!([{ "item": "loot_wood" }]))])
        .round(vec![PASS, logging_with(dwelling)]);
    let (before, after) = at_11.around("logging");
    assert_eq!(
        after.player(0).board.tile(Coord::at(2, 3)),
        Some(Tile::Furnished { tile: Furnishing::Dwelling, under: Under::Cavern })
    );
    // Logging's 3 wood arrive with the placement; then 2 wood 2 stone are paid.
    assert_eq!(get(&after, Good::Wood), get(&before, Good::Wood) + 3 - 2);
    assert_eq!(get(&after, Good::Stone), get(&before, Good::Stone) - 2);
}

// ---------------------------------------------------------------------------------------------
// H.3 – H.7: action spaces
// ---------------------------------------------------------------------------------------------

/// H.3: Ruby mining is a printed space, available from round 1 (three players: 1 ruby in
/// round 1); with two players it exists in round 1 but holds nothing until round 3.
#[test]
fn h3_ruby_mining_is_available_from_round_1() {
    let g = Script::new(3).round(vec![place(0, "ruby_mining", json!([])), PASS]).game();
    assert_eq!(get(&g, Good::Ruby), 1);
    assert!(g.spaces().contains_key(&ActionSpace::RubyMining));
    rejects(2, json!([place(0, "ruby_mining", json!([]))]), 0, E::NoAction);
}

/// H.4: Fence building (5–7 players) builds at most one small and at most one large pasture,
/// both in one use allowed.
#[test]
fn h4_fence_building_one_small_and_one_large() {
    let base = Script::new(5)
        // Round 1: meadows at [3, 2] and [2, 2] (Clearing's 2 wood).
        .round(vec![
            place(0, "clearing", json!([mf([3, 2], [3, 1])])),
            place(0, "sustenance", json!([mf([2, 2], [1, 2])])),
        ])
        // Round 2: a meadow at [2, 1]; Logging's 3 wood.
        .round(vec![place(0, "slash_and_burn", json!([mf([2, 1], [1, 1])])), place(0, "logging", json!([]))]);
    let fence = |cells: Vec<Value>| {
        let actions: Vec<Value> = cells.into_iter().map(|c| json!({ "do": "fence", "cells": c })).collect();
        base.clone().round(vec![place(0, "fence_building", json!(actions)), PASS])
    };
    // Round 3: Fence building's 3 wood (1 a round); large (4) + small (2) = 6 of 8 wood.
    let (before, after) = fence(vec![json!([[3, 2], [2, 2]]), json!([[2, 1]])]).around("fence_building");
    assert_eq!(get(&before, Good::Wood), 5);
    assert_eq!(get(&after, Good::Wood), 5 + 3 - 6);
    let b = &after.player(0).board;
    assert_eq!(b.tile(Coord::at(2, 1)), Some(Tile::SmallPasture));
    assert_eq!(b.tile(Coord::at(2, 2)), Some(Tile::LargePasture { partner: Coord::at(3, 2) }));
    assert_eq!(fence(vec![json!([[3, 2]]), json!([[2, 1]])]).rejects(E::ActionNotAllowed)["space"], "fence_building");
}

/// H.5: the solo replenish step clears spaces holding 6 or more goods (5 stay); a `keep`
/// entry keeps one for a ruby.
#[test]
fn h5_solo_clears_spaces_with_6_or_more_goods() {
    let pairs = [
        ["ruby_mining", "wood_gathering"],
        ["excavation", "ore_mining"],
        ["sustenance", "wood_gathering"],
        ["excavation", "ore_mining"],
    ];
    let e: Vec<Value> = pairs.iter().flatten().map(|s| place(0, s, json!([]))).collect();
    // Logging untouched: 3, 4, 5 … round 4 started with 5 (kept), then 6.
    let g = ok(1, json!(e[..6].to_vec())).game.unwrap();
    assert_eq!((g.round(), g.spaces()[&ActionSpace::Logging].goods.get(Good::Wood)), (4, 6));
    // Round 5 starts with 6: cleared, then replenished with 3.
    let g = ok(1, json!(e)).game.unwrap();
    assert_eq!((g.round(), g.spaces()[&ActionSpace::Logging].goods.get(Good::Wood)), (5, 3));
    // Kept with the round-1 ruby: 6 + 1.
    let mut kept = e.clone();
    kept.push(json!({ "type": "keep", "player": 0, "spaces": ["logging"] }));
    let g = ok(1, json!(kept)).game.unwrap();
    assert_eq!(g.spaces()[&ActionSpace::Logging].goods.get(Good::Wood), 7);
    assert_eq!(g.player(0).supply.get(Good::Ruby), 0);
}

/// H.6: Drift mining, Clearing, Supplies and Starting player are not in the solo game.
#[test]
fn h6_solo_game_has_no_drift_mining_clearing_supplies_or_starting_player() {
    for space in ["drift_mining", "clearing", "supplies", "starting_player"] {
        rejects(1, json!([place(0, space, json!([]))]), 0, E::SpaceNotAvailable);
    }
    ok(1, json!([place(0, "excavation", json!([]))]));
}

/// H.7: an opponent-occupied Imitation space may be imitated (paying both food costs), but
/// never to reach a space holding one of your own dwarfs. Seven players: Imitation costs 0,
/// 1, 2.
#[test]
fn h7_imitating_an_imitation_space() {
    let gain = json!([{ "do": "gain" }]);
    let copy = |target: &str, inner: Value| json!([{ "do": "imitate", "space": target, "actions": inner }]);
    let e = json!([
        place(0, "growth", gain.clone()),
        place(1, "imitation", copy("growth", gain.clone())),
        place(2, "imitation_2", copy("imitation", copy("growth", gain.clone()))),
    ]);
    let g = ok(7, e).game.unwrap();
    let p2 = &g.player(2).supply;
    // Player 2: 2 food − 1 (Imitation 2) − 0 (Imitation) + 1 (Growth's food); Growth's 2 gold.
    assert_eq!((p2.get(Good::Food), p2.get(Good::Gold), p2.get(Good::Wood)), (2, 2, 1));
    // Player 2's own dwarf on Ore mining cannot be reached through Player 1's Imitation.
    let mut e = vec![
        place(0, "growth", gain.clone()),
        place(1, "imitation", copy("growth", gain.clone())),
        place(2, "ore_mining", json!([])),
    ];
    for (p, s) in [
        (3, "logging"),
        (4, "clearing"),
        (5, "sustenance"),
        (6, "drift_mining"),
        (0, "excavation"),
        (1, "forest_exploration"),
    ] {
        e.push(place(p, s, json!([])));
    }
    e.push(place(2, "imitation_2", copy("imitation", copy("ore_mining", json!([])))));
    rejects(7, json!(e), 9, E::ImitationTarget);
}

// ---------------------------------------------------------------------------------------------
// H.8: Guest room
// ---------------------------------------------------------------------------------------------

/// H.8: with a Guest room, Growth (4+ players) gives its goods and a family growth in one use.
#[test]
fn h8_guest_room_growth_gives_goods_and_a_dwarf() {
    let cc = twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]));
    let build = |with: bool| {
        let r2 = if with { housework("guest_room", [2, 3]) } else { PASS };
        Script::new(4)
            // Round 1: Logging 3 wood; Excavation 2 stone and caverns [1, 3], [0, 3].
            .round(vec![place(0, "logging", json!([])), place(0, "excavation", json!([cc.clone()]))])
            // Round 2: the Guest room; Drift mining 4 stone.
            .round(vec![r2, place(0, "drift_mining", json!([]))])
            // Round 3: Forest exploration 4 wood; a dwelling at [1, 3].
            .round(vec![place(0, "forest_exploration", json!([])), housework("dwelling", [1, 3])])
            // Round 4 (after round 3's feeding): Growth as player 0's second placement.
            .round(vec![PASS, place(0, "growth", json!([{ "do": "gain" }, { "do": "grow" }]))])
    };
    let (before, after) = build(true).around("growth");
    assert_eq!(after.player(0).dwarfs_in_play(), 3);
    for (good, n) in [(Good::Wood, 1), (Good::Stone, 1), (Good::Ore, 1), (Good::Food, 1), (Good::Gold, 2)] {
        assert_eq!(get(&after, good), get(&before, good) + n, "{good:?}");
    }
    assert_eq!(build(false).rejects(E::ActionNotAllowed)["space"], "growth");
}

/// H.8: with a Guest room, Extension (7 players) gives both halves (Meadow/Field twin + 1 wood
/// and Cavern/Tunnel twin + 1 stone), once per game; one half stays possible afterwards.
#[test]
fn h8_guest_room_extension_both_halves_once_per_game() {
    let both = |a: Value, b: Value| place(0, "extension", json!([a, b]));
    let s = Script::new(7)
        .round(vec![place(0, "logging", json!([])), place(0, "drift_mining", json!([]))])
        .round(vec![housework("guest_room", [2, 3]), PASS])
        .round(vec![both(mf([3, 2], [3, 1]), ct([1, 3], [1, 4])), PASS]);
    let (before, after) = s.around("extension");
    assert_eq!(get(&after, Good::Wood), get(&before, Good::Wood) + 1);
    assert_eq!(get(&after, Good::Stone), get(&before, Good::Stone) + 1);
    assert_eq!(after.player(0).board.tile(Coord::at(1, 4)), Some(Tile::Tunnel));
    assert_eq!(after.player(0).board.tile(Coord::at(3, 2)), Some(Tile::Meadow));
    assert!(after.player(0).extension_both);
    let again = s.clone().round(vec![both(mf([2, 2], [1, 2]), ct([0, 3], [0, 4])), PASS]);
    assert_eq!(again.rejects(E::ActionNotAllowed)["space"], "extension");
    s.round(vec![place(0, "extension", json!([ct([0, 3], [0, 4])])), PASS]).game();
    // Without a Guest room: either … or.
    let e = Script::new(7).round(vec![both(mf([3, 2], [3, 1]), ct([1, 3], [1, 4])), PASS]);
    assert_eq!(e.rejects(E::ActionNotAllowed)["space"], "extension");
}

/// H.8: with a Guest room, Urgent wish for children allows the dwelling, the growth and the
/// 3 gold in one use (two players: Family life flips the card in round 7).
#[test]
fn h8_guest_room_urgent_wish_dwelling_growth_and_gold() {
    let cc = twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]));
    let all = json!([furnish("dwelling", [1, 3]), { "do": "grow" }, { "do": "gain" }]);
    let build = |with: bool| {
        let r2 = if with { housework("guest_room", [2, 3]) } else { PASS };
        Script::new(2)
            .round(vec![place(0, "logging", json!([])), place(0, "supplies", json!([]))])
            .round(vec![r2, place(0, "excavation", json!([cc.clone()]))])
            .round(vec![place(0, "drift_mining", json!([])), PASS])
            .quiet(3)
            .round(vec![PASS, place(0, "urgent_wish_for_children", all.clone())])
    };
    let (before, after) = build(true).around("urgent_wish_for_children");
    assert_eq!(before.round(), 7);
    assert_eq!(after.player(0).dwarfs_in_play(), 3);
    assert_eq!(get(&after, Good::Gold), get(&before, Good::Gold) + 3);
    assert_eq!(build(false).rejects(E::ActionNotAllowed)["space"], "urgent_wish_for_children");
}

/// H.8 (B.3): with a Guest room, Ruby mine construction places a Ruby mine on an ordinary
/// tunnel and/or one on a deep tunnel (+1 ruby) — not two on ordinary tunnels.
#[test]
fn h8_guest_room_ruby_mine_construction_tunnel_and_deep_tunnel() {
    let ore_mine = json!([{ "do": "ore_mine", "cells": [[1, 4], [0, 4]], "kinds": ["ore_mine", "deep_tunnel"] }]);
    let base = |with: bool| {
        let r2 = if with { housework("guest_room", [2, 3]) } else { PASS };
        Script::new(2)
            .round(vec![place(0, "logging", json!([])), place(0, "supplies", json!([]))])
            // Round 2: tunnel [1, 4]; round 3: tunnel [0, 4], then the ore mine twin on both.
            .round(vec![r2, place(0, "drift_mining", json!([ct([1, 3], [1, 4])]))])
            .round(vec![
                place(0, "excavation", json!([twin(json!([[0, 4], [0, 3]]), json!(["tunnel", "cavern"]))])),
                place(0, "ore_mine_construction", ore_mine.clone()),
            ])
            // Rounds 4–5: ordinary tunnels at [2, 4] and [1, 5].
            .round(vec![
                place(0, "drift_mining", json!([twin(json!([[2, 4], [2, 5]]), json!(["tunnel", "cavern"]))])),
                PASS,
            ])
            .round(vec![
                place(0, "excavation", json!([twin(json!([[1, 5], [0, 5]]), json!(["tunnel", "cavern"]))])),
                PASS,
            ])
    };
    let mines = |cells: &[[i8; 2]]| {
        let a: Vec<Value> = cells.iter().map(|c| json!({ "do": "ruby_mine", "at": c })).collect();
        vec![place(0, "ruby_mine_construction", json!(a)), PASS]
    };
    for order in [[[0, 4], [2, 4]], [[2, 4], [0, 4]]] {
        let (before, after) = base(true).round(mines(&order)).around("ruby_mine_construction");
        assert_eq!(after.round(), 6);
        let b = &after.player(0).board;
        assert_eq!((b.tile(Coord::at(0, 4)), b.tile(Coord::at(2, 4))), (Some(Tile::RubyMine), Some(Tile::RubyMine)));
        assert_eq!(get(&after, Good::Ruby), get(&before, Good::Ruby) + 1, "the deep tunnel's ruby");
    }
    let two_ordinary = base(true).round(mines(&[[2, 4], [1, 5]]));
    assert_eq!(two_ordinary.rejects(E::ActionNotAllowed)["space"], "ruby_mine_construction");
    // Without the Guest room: one Ruby mine.
    let without = base(false).round(mines(&[[0, 4], [2, 4]]));
    assert_eq!(without.rejects(E::ActionNotAllowed)["space"], "ruby_mine_construction");
    base(false).round(mines(&[[2, 4]])).game();
}

// ---------------------------------------------------------------------------------------------
// H.9 – H.13
// ---------------------------------------------------------------------------------------------

/// H.9: the Carpenter saves 1 wood per pasture built: a small and a large pasture on one
/// Sheep farming cost (2 − 1) + (4 − 1) = 4 wood; loot pastures 0 and 1.
#[test]
fn h9_carpenter_saves_a_wood_per_pasture() {
    let s = Script::new(2)
        .round(vec![place(0, "supplies", json!([])), housework("carpenter", [2, 3])])
        // Round 2: meadows at [3, 2], [2, 2] (Clearing's 2 wood).
        .round(vec![
            place(0, "clearing", json!([mf([3, 2], [3, 1])])),
            place(0, "sustenance", json!([mf([2, 2], [1, 2])])),
        ])
        // Round 3: a meadow at [2, 1]; Logging's 5 wood.
        .round(vec![place(0, "slash_and_burn", json!([mf([2, 1], [1, 1])])), place(0, "logging", json!([]))])
        .round(vec![
            place(
                0,
                "sheep_farming",
                json!([{ "do": "fence", "cells": [[3, 2], [2, 2]] }, { "do": "fence", "cells": [[2, 1]] }]),
            ),
            PASS,
        ]);
    let (before, after) = s.around("sheep_farming");
    assert_eq!(get(&before, Good::Wood), 8);
    assert_eq!(get(&after, Good::Wood), 8 - 4);
    assert_eq!(get(&after, Good::Sheep), 3);
    let p = after.player(0);
    assert_eq!(pasture_price(p, Pasture::Small, true), 0);
    assert_eq!(pasture_price(p, Pasture::Large, true), 1);
    assert_eq!(pasture_price(&fresh_player(), Pasture::Large, true), 2);
}

/// H.10: Slash-and-burn in card order: the sow alone is fine, but a twin after the sow is not.
#[test]
fn h10_slash_and_burn_twin_never_after_the_sow() {
    let sow = json!({ "do": "sow", "grain": [[3, 2]] });
    let base = Script::new(2).round(vec![
        place(0, "sustenance", json!([])),
        place(0, "clearing", json!([twin(json!([[3, 2], [3, 1]]), json!(["field", "meadow"]))])),
    ]);
    let g = base.clone().round(vec![place(0, "slash_and_burn", json!([sow.clone()])), PASS]).game();
    assert_eq!(g.player(0).board.sown(), (3, 0));
    let late_twin = base.round(vec![place(0, "slash_and_burn", json!([sow, mf([2, 2], [1, 2])])), PASS]);
    assert_eq!(late_twin.rejects(E::ActionNotAllowed)["space"], "slash_and_burn");
}

/// H.11: the Writing chamber's saved points go into the negative rows in pad order (missing
/// types, unused spaces, begging), 7 at most in all.
#[test]
fn h11_writing_chamber_corrections_in_pad_order() {
    let mut p = fresh_player();
    set(&mut p, (2, 3), Furnishing::WritingChamber);
    p.supply = Goods::of(&[(Good::Sheep, 1), (Good::Donkey, 1), (Good::Boar, 1), (Good::Gold, 4)]);
    let empty: Vec<Coord> = Coord::inner().filter(|&c| p.board.tile(c).is_none()).collect();
    for c in &empty[..20] {
        p.board.set_tile(*c, if c.is_forest() { Tile::Meadow } else { Tile::Cavern });
    }
    p.begging = 2;
    // Losses: missing cattle −2, 2 unused −2, begging −6: save 2, 2, then 3 of the 6.
    let s = score(&p);
    assert_eq!((s.missing_farm_animal_types, s.unused_spaces, s.gold_and_begging), (0, 0, 4 - 6 + 3));
    assert_eq!(s.bonus_parlors_storages_chambers, 0, "not booked as a bonus");
    p.begging = 0;
    let s = score(&p);
    assert_eq!((s.missing_farm_animal_types, s.unused_spaces, s.gold_and_begging), (0, 0, 4), "never a gain");
}

/// H.12: a dog costs 2 gold at the Weekly market.
#[test]
fn h12_weekly_market_dog_costs_2_gold() {
    let g = Script::new(5).round(vec![place(0, "weekly_market", json!([{ "do": "buy", "goods": ["dog"] }])), PASS]);
    let (_, g) = g.around("weekly_market");
    assert_eq!((get(&g, Good::Gold), get(&g, Good::Dog)), (4 - 2, 1));
}

/// H.13: Imitation costs follow table B.5 (0/1/2/4): seven players pay 0, 1 and 2 food.
#[test]
fn h13_imitation_costs_follow_table_b5() {
    let table: [(usize, &[u32]); 5] = [(3, &[4]), (4, &[2]), (5, &[2, 4]), (6, &[1, 2]), (7, &[0, 1, 2])];
    for (players, costs) in table {
        let got: Vec<u32> = ActionSpace::printed(players)
            .into_iter()
            .filter(|s| s.is_imitation())
            .map(|s| s.imitation_cost(players))
            .collect();
        assert_eq!(got, costs, "{players} players");
    }
    let gain = json!([{ "do": "gain" }]);
    let copy = json!([{ "do": "imitate", "space": "growth", "actions": gain }]);
    let e = json!([
        place(0, "growth", gain),
        place(1, "imitation", copy.clone()),
        place(2, "imitation_2", copy.clone()),
        place(3, "imitation_3", copy),
    ]);
    let g = ok(7, e).game.unwrap();
    // Starting food 1, 2, 3 (C.1) − 0, 1, 2 + 1 food from Growth each.
    let food: Vec<u32> = (1..=3).map(|p| g.player(p).supply.get(Good::Food)).collect();
    assert_eq!(food, [2, 2, 2]);
}

// ---------------------------------------------------------------------------------------------
// H.14 – H.18
// ---------------------------------------------------------------------------------------------

/// H.14: six and seven players have a second accumulating Drift mining (`drift_mining_2`, 1
/// stone a round); five players have the non-accumulating Small-scale drift mining instead.
#[test]
fn h14_second_drift_mining_on_6_and_7_players() {
    // Round 1 passes leave it alone; round 2 it holds 1 + 1 stone.
    let g = Script::new(6).quiet(1).round(vec![place(0, "drift_mining_2", json!([])), PASS]);
    let (before, after) = g.around("drift_mining_2");
    assert_eq!(before.spaces()[&ActionSpace::DriftMining2].goods.get(Good::Stone), 2);
    assert_eq!(get(&after, Good::Stone), get(&before, Good::Stone) + 2);
    rejects(5, json!([place(0, "drift_mining_2", json!([]))]), 0, E::SpaceNotAvailable);
    let small = json!([ct([1, 3], [1, 4])]);
    let g = ok(5, json!([place(0, "small_scale_drift_mining", small)])).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Stone), 1);
    assert!(g.spaces()[&ActionSpace::SmallScaleDriftMining].goods.is_empty());
    rejects(5, json!([place(0, "small_scale_drift_mining", json!([]))]), 0, E::NoAction);
}

/// H.15: a ruby buys a dog.
#[test]
fn h15_a_ruby_buys_a_dog() {
    let e = json!([place(0, "starting_player", json!([{ "do": "ruby_trade", "goods": { "dog": 1 } }]))]);
    let g = ok(4, e).game.unwrap();
    let s = &g.player(0).supply;
    assert_eq!((s.get(Good::Ruby), s.get(Good::Dog)), (0, 1));
    assert_eq!(score(g.player(0)).farm_animals_and_dogs, 1);
}

/// H.16: logs use printed round numbers; two players have no round 9.
#[test]
fn h16_two_player_rounds_skip_9() {
    let g = Script::new(2).quiet(8).game();
    assert_eq!(g.round(), 10);
    assert_eq!(g.setup().rounds(), vec![1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]);
    // Round 10 of two players is the 9th card: adventure in the test deck.
    assert!(g.spaces().contains_key(&ActionSpace::Adventure));
    assert_eq!(Script::new(3).quiet(8).game().round(), 9);
}

/// H.17: red harvest events follow the order in which red tokens are revealed: the first red
/// is "no harvest", the second "1 food per dwarf", the third "field or breeding".
#[test]
fn h17_red_events_in_reveal_order() {
    let mut s = Script::new(3);
    s.setup["harvest_tokens"] = json!(["green", "green", "red", "green", "red", "green", "red"]);
    let at = |rounds: usize| s.clone().quiet(rounds).game();
    let harvest: Vec<(u8, Harvest)> = [5, 6, 7, 8, 9, 10, 11]
        .into_iter()
        .map(|r| {
            let g = at(r);
            (g.round(), g.harvest())
        })
        .collect();
    assert_eq!(
        harvest,
        [
            (6, Harvest::Normal),
            (7, Harvest::Normal),
            (8, Harvest::None),
            (9, Harvest::Normal),
            (10, Harvest::OneFoodPerDwarf),
            (11, Harvest::Normal),
            (12, Harvest::Choice),
        ]
    );
    // Round 8: no feeding at all.
    let (r8, r9) = (at(7), at(8));
    assert_eq!(r9.player(0).begging, r8.player(0).begging);
    // Round 12 waits for every player's choice.
    let g = s.quiet(12).game();
    assert_eq!(g.phase(), &Phase::HarvestChoice);
}

/// H.18: dogs may stand anywhere and always score; only dogs on meadows and pastures change
/// capacity (d dogs → d + 1 sheep). A dog on the meadow at [3, 2] makes room for a 3rd sheep.
#[test]
fn h18_dogs_only_change_capacity_on_meadows() {
    let build = |dog: bool| {
        let r1 = if dog { place(0, "housework", json!([{ "do": "dog" }])) } else { PASS };
        Script::new(2)
            .round(vec![place(0, "clearing", json!([mf([3, 2], [3, 1])])), r1])
            .quiet(2)
            .round(vec![place(0, "sheep_farming", json!([])), PASS])
    };
    let (_, g) = build(true).around("sheep_farming");
    assert_eq!((get(&g, Good::Sheep), get(&g, Good::Dog)), (3, 1));
    assert_eq!(score(g.player(0)).farm_animals_and_dogs, 4);
    assert_eq!(build(false).rejects(E::AnimalsUnhoused)["space"], "sheep_farming");
    // No meadow: dogs still fit (anywhere) but guard nothing.
    let bare = fresh_player().board;
    assert!(housing::fits(&bare, 2, [2, 0, 0, 0], 5));
    assert!(!housing::fits(&bare, 2, [3, 0, 0, 0], 5));
}

// ---------------------------------------------------------------------------------------------
// H.19, H.20: not rules
// ---------------------------------------------------------------------------------------------

/// H.19 (not a rule): any-time tiles may be used any number of times at any time before
/// scoring — here a Beer parlor twice in one `feed` entry and again in a `free` entry of the
/// same harvest (BGA allows a building in only one exchange step per harvest).
#[test]
fn h19_beer_parlor_used_several_times_in_one_harvest() {
    let brew = |for_: &str| json!({ "do": "use", "tile": "beer_parlor", "for": for_ });
    let s = Script::new(2)
        // Sustenance three rounds running: 1 grain each (and its food); a fourth grain for a
        // ruby in round 3.
        .round(vec![place(0, "sustenance", json!([])), place(0, "logging", json!([]))])
        .round(vec![place(0, "sustenance", json!([])), housework("beer_parlor", [2, 3])])
        .round(vec![
            place(0, "sustenance", json!([])),
            place(0, "ruby_mining", json!([{ "do": "ruby_trade", "goods": { "grain": 1 } }])),
        ])
        // Round 3's feeding: the `feed` entry brews twice.
        .then(json!({ "type": "feed", "player": 0, "actions": [brew("food"), brew("gold")] }))
        .then(json!({ "type": "feed", "player": 1, "actions": [] }));
    // (The end of a log applies the feeding; stop before player 1's entry to look inside.)
    let g = s.upto(s.entries.len() - 1);
    assert!(matches!(g.phase(), Phase::Feeding { .. }));
    assert_eq!((get(&g, Good::Grain), get(&g, Good::Gold)), (0, 3));
    // Food: 1 + 1 + 1 + 1 (start and three Sustenances) + 4 (beer) = 8; feeding takes 4.
    let g = s.game();
    assert_eq!(g.round(), 4);
    assert_eq!((get(&g, Good::Food), g.player(0).begging), (8 - 4, 0));
    // Used again in a later step: a `free` entry after the `feed` run closes the feeding
    // window (the food is paid) and brews once more (LOG-FORMAT: the `feed` run is consecutive).
    let two_steps = Script::new(2)
        .round(vec![place(0, "sustenance", json!([])), place(0, "logging", json!([]))])
        .round(vec![place(0, "sustenance", json!([])), housework("beer_parlor", [2, 3])])
        .round(vec![
            place(0, "sustenance", json!([])),
            place(0, "ruby_mining", json!([{ "do": "ruby_trade", "goods": { "grain": 1 } }])),
        ])
        .then(json!({ "type": "feed", "player": 0, "actions": [brew("food")] }))
        .then(json!({ "type": "feed", "player": 1, "actions": [] }))
        .then(free(0, json!([brew("gold")])));
    let g = two_steps.game();
    assert_eq!(g.round(), 4);
    assert_eq!((get(&g, Good::Grain), get(&g, Good::Gold), get(&g, Good::Food)), (0, 3, 8 - 4));
}

/// H.20 (not a rule): the last harvest of a three-player game breeds by the same default as
/// every other harvest (BGA's `count > 3` last-turn check is UI automation only): no `breed`
/// entry is needed and the lamb is born.
#[test]
fn h20_three_player_last_harvest_breeds_by_default() {
    let mut s = Script::new(3);
    // Reds in rounds 9–11: round 11 is the "field or breeding" event; round 12 is normal.
    s.setup["harvest_tokens"] = json!(["green", "green", "green", "red", "red", "red", "green"]);
    let mut s = s.quiet(10).round(vec![place(0, "drift_mining", json!([])), PASS]);
    for p in 0..3 {
        s = s.then(json!({ "type": "harvest_choice", "player": p, "phase": "field" }));
    }
    // Round 12: a meadow at [3, 2] with a stable; 2 of Sheep farming's 11 sheep are kept.
    let sheep = json!([{ "do": "stable", "at": [3, 2] }, { "do": "release", "animals": { "sheep": 9 } }]);
    let s = s.round(vec![place(0, "clearing", json!([mf([3, 2], [3, 1])])), place(0, "sheep_farming", sheep)]);
    let (_, before) = s.around("sheep_farming");
    assert_eq!((before.round(), get(&before, Good::Sheep)), (12, 2));
    let r = s.replay();
    assert_eq!(r.status, Status::Complete);
    let g = r.game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Sheep), 3, "entry dwelling 2 + stable on meadow 1");
    assert!(s.entries.iter().all(|e| e["type"] != "breed"));
}

// ---------------------------------------------------------------------------------------------
// H.21 – H.24
// ---------------------------------------------------------------------------------------------

/// H.21: BGA's beginner flags are the introductory set: 27 tiles, 3 of them dwellings; a
/// full-only tile is refused in an introductory game, an intro tile is built.
#[test]
fn h21_introductory_set_is_bgas_27_beginner_tiles() {
    assert_eq!(CATALOGUE.iter().filter(|c| c.intro).count(), 27);
    assert_eq!(CATALOGUE.iter().filter(|c| c.intro && c.tile.is_dwelling()).count(), 3);
    let mut s = Script::new(2);
    s.setup["furnishings"] = json!("introductory");
    let built = s.clone().round(vec![place(0, "supplies", json!([])), housework("carpenter", [2, 3])]).game();
    assert!(built.player(0).owns(Furnishing::Carpenter));
    let refused = s.round(vec![place(0, "supplies", json!([])), housework("office_room", [2, 3])]);
    assert_eq!(refused.rejects(E::FurnishingUnavailable)["space"], "housework");
}

/// H.22: the Work room must go on a cavern; once built, Furnish a dwelling (Wish for
/// children) may use a tunnel.
#[test]
fn h22_work_room_only_on_a_cavern() {
    let tunnel = twin(json!([[1, 3], [1, 4]]), json!(["tunnel", "cavern"]));
    let base = Script::new(2).round(vec![place(0, "supplies", json!([])), place(0, "drift_mining", json!([tunnel]))]);
    let on_tunnel = base.clone().round(vec![housework("work_room", [1, 3]), PASS]);
    assert_eq!(on_tunnel.rejects(E::FurnishingCell)["space"], "housework");
    let s = base
        // Round 2: the Work room on a cavern; Logging 4 wood (→ 5).
        .round(vec![housework("work_room", [2, 3]), place(0, "logging", json!([]))])
        // Round 3: Excavation 3 stone (→ 4).
        .round(vec![place(0, "excavation", json!([])), PASS])
        .round(vec![place(0, "wish_for_children", json!([furnish("dwelling", [1, 3])])), PASS]);
    let (_, g) = s.around("wish_for_children");
    assert_eq!(
        g.player(0).board.tile(Coord::at(1, 3)),
        Some(Tile::Furnished { tile: Furnishing::Dwelling, under: Under::Tunnel })
    );
}

/// H.23: the rulebook's scoring example totals 80 — here with the French reading of the
/// vegetables / rubies / gold (5 + 1 + 12) and another split of the animals and the grain.
#[test]
fn h23_scoring_example_totals_80() {
    let mut p = fresh_player();
    p.board.set_tile(Coord::at(3, 2), Tile::SmallPasture);
    p.board.set_tile(Coord::at(2, 2), Tile::LargePasture { partner: Coord::at(1, 2) });
    p.board.set_tile(Coord::at(1, 2), Tile::LargePasture { partner: Coord::at(2, 2) });
    // Three fields (two sown with 3 grain each) and three meadows; 3 spaces unused.
    p.board.set_tile(Coord::at(3, 1), Tile::Field { crop: Some((Crop::Grain, 3)) });
    p.board.set_tile(Coord::at(3, 0), Tile::Field { crop: Some((Crop::Grain, 3)) });
    p.board.set_tile(Coord::at(2, 1), Tile::Field { crop: None });
    for c in [(2, 0), (1, 1), (1, 0)] {
        p.board.set_tile(Coord::at(c.0, c.1), Tile::Meadow);
    }
    p.board.set_tile(Coord::at(1, 3), Tile::RubyMine);
    p.board.set_tile(Coord::at(1, 4), Tile::RubyMine);
    p.board.set_tile(Coord::at(0, 4), Tile::OreMine);
    p.board.set_tile(Coord::at(0, 3), Tile::DeepTunnel);
    set(&mut p, (2, 4), Furnishing::Dwelling);
    set(&mut p, (2, 5), Furnishing::Dwelling);
    set(&mut p, (3, 4), Furnishing::SlaughteringCave);
    set(&mut p, (3, 5), Furnishing::CookingCave);
    set(&mut p, (1, 5), Furnishing::WorkingCave);
    set(&mut p, (0, 5), Furnishing::FodderChamber);
    p.dwarfs = [Dwarf { weapon: None, space: None, newborn: false }; 4].into_iter().collect();
    p.supply = Goods::of(&[
        (Good::Dog, 2),
        (Good::Sheep, 3),
        (Good::Donkey, 2),
        (Good::Boar, 4),
        (Good::Cattle, 10),
        (Good::Grain, 3),
        (Good::Vegetable, 5),
        (Good::Ruby, 1),
        (Good::Gold, 12),
    ]);
    let s = score(&p);
    assert_eq!(s.unused_spaces, -3);
    assert_eq!((s.grain, s.vegetables + s.rubies + s.gold_and_begging), (5, 18));
    assert_eq!(s.bonus_parlors_storages_chambers, 6);
    assert_eq!(s.total, 80);
}

/// H.24: weapon strength 1–8 at forging; with a Blacksmith the ore paid is max(0, strength − 2),
/// so strength 1 and 2 are free.
#[test]
fn h24_blacksmith_pays_strength_minus_2_never_below_0() {
    let s = Script::new(2)
        .round(vec![place(0, "supplies", json!([])), place(0, "drift_mining", json!([]))])
        // Round 2: the Blacksmith (→ 3 ore); a strength-5 weapon for 3 ore (→ 0).
        .round(vec![
            housework("blacksmith", [2, 3]),
            place(0, "blacksmithing", json!([{ "do": "forge", "strength": 5 }])),
        ]);
    let (_, g) = s.around("blacksmithing");
    assert_eq!((get(&g, Good::Ore), g.player(0).dwarfs[1].weapon), (0, Some(5)));
    let p = g.player(0);
    let costs: Vec<u32> = (1..=8).map(|st| weapons::forge_cost(p, st)).collect();
    assert_eq!(costs, [0, 0, 1, 2, 3, 4, 5, 6]);
    // Round 3, the unarmed dwarf 0, no ore: strength 2 is free, 3 needs an ore, 9 is too much.
    let forge =
        |st: u32| s.clone().round(vec![place(0, "blacksmithing", json!([{ "do": "forge", "strength": st }])), PASS]);
    let (_, g) = forge(2).around("blacksmithing");
    assert_eq!((get(&g, Good::Ore), g.player(0).dwarfs[0].weapon), (0, Some(2)));
    assert_eq!(forge(3).rejects(E::InsufficientGoods)["space"], "blacksmithing");
    assert_eq!(forge(9).rejects(E::OutOfRange)["space"], "blacksmithing");
}
