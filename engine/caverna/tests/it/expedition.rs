//! Weapons and expeditions: `docs/rules/caverna-reference.md` B.4 (forging), D.1, D.2, H.1, H.24.

use crate::common::*;
use chronicle_caverna::goods::Good;
use chronicle_caverna::ErrorCode as E;
use serde_json::{json, Value};

/// Player 0 gets 2 ore from `starting_player`, then acts on blacksmithing (round 1, 2 players).
fn blacksmithing(actions: Value) -> Value {
    json!([place(0, "starting_player", json!([])), place(1, "logging", json!([])), place(0, "blacksmithing", actions),])
}

/// B.4: forging costs ore equal to the strength; strength 1–8.
#[test]
fn b4_forge_costs_ore_and_caps_at_8() {
    let g = ok(2, blacksmithing(json!([{ "do": "forge", "strength": 2 }]))).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Ore), 0);
    assert_eq!(g.player(0).dwarfs[1].weapon, Some(2));
    rejects(2, blacksmithing(json!([{ "do": "forge", "strength": 3 }])), 2, E::InsufficientGoods);
    rejects(2, blacksmithing(json!([{ "do": "forge", "strength": 9 }])), 2, E::OutOfRange);
}

/// D.1: only armed dwarfs go on expeditions.
#[test]
fn d1_expedition_needs_a_weapon() {
    rejects(2, json!([place(0, "logging", json!([{ "do": "expedition", "loot": [] }]))]), 0, E::WeaponRequired);
}

/// D.1 / D.2: loot at most the level, each item once, min strength ≤ weapon; +1 afterwards.
#[test]
fn d1_loot_rules() {
    let exp = |loot: Value| json!([{ "do": "forge", "strength": 2 }, { "do": "expedition", "loot": loot }]);
    let g =
        ok(2, blacksmithing(exp(json!([{ "item": "loot_wood" }, { "item": "loot_sheep" }, { "item": "loot_dog" }]))))
            .game
            .unwrap();
    let p = g.player(0);
    assert_eq!((p.supply.get(Good::Dog), p.supply.get(Good::Sheep)), (1, 1));
    assert_eq!(p.supply.get(Good::Wood), 1);
    assert_eq!(p.dwarfs[1].weapon, Some(3), "strength 2 forged, +1 after the expedition");
    // Above the dwarf's strength (donkey needs 3), the same item twice, more than the level.
    let e = blacksmithing(exp(json!([{ "item": "loot_donkey" }])));
    rejects(2, e, 2, E::LootNotAllowed);
    let e = blacksmithing(exp(json!([{ "item": "loot_wood" }, { "item": "loot_wood" }])));
    rejects(2, e, 2, E::LootNotAllowed);
    let e = blacksmithing(exp(
        json!([{ "item": "loot_wood" }, { "item": "loot_dog" }, { "item": "loot_grain" }, { "item": "loot_sheep" }]),
    ));
    rejects(2, e, 2, E::LootNotAllowed);
}

/// D.1: All weapons +1 applies after the expedition: the expedition dwarf gains 2 in all.
#[test]
fn d1_increase_all_weapons_adds_after_the_expedition() {
    let e = blacksmithing(
        json!([{ "do": "forge", "strength": 1 }, { "do": "expedition", "loot": [{ "item": "increase_all_weapons" }] }]),
    );
    let g = ok(2, e).game.unwrap();
    assert_eq!(g.player(0).dwarfs[1].weapon, Some(3));
    assert_eq!(g.player(0).dwarfs[0].weapon, None, "unarmed dwarfs get nothing");
}

/// B.3 Blacksmithing: an armed dwarf only goes on the expedition; it cannot forge again.
#[test]
fn b3_armed_dwarf_cannot_forge() {
    let mut v = blacksmithing(json!([{ "do": "forge", "strength": 1 }])).as_array().cloned().unwrap();
    v.push(place(1, "wood_gathering", json!([])));
    v.push(place(0, "supplies", json!([])));
    v.push(place(1, "logging", json!([])));
    v.push(place(0, "blacksmithing", json!([{ "do": "forge", "strength": 1 }])));
    rejects(2, json!(v), 6, E::ActionNotAllowed);
}

/// H.24: with a Blacksmith, ore paid is strength − 2 (the Blacksmith also gives 2 ore, E.3).
#[test]
fn h24_blacksmith_discount() {
    let e = json!([
        place(0, "supplies", json!([])),
        place(1, "logging", json!([])),
        place(0, "drift_mining", json!([])),
        place(1, "wood_gathering", json!([])),
        place(0, "housework", json!([{ "do": "furnish", "tile": "blacksmith", "at": [2, 3] }])),
        place(1, "ore_mining", json!([])),
        place(0, "blacksmithing", json!([{ "do": "forge", "strength": 3 }])),
    ]);
    let g = ok(2, e).game.unwrap();
    // 1 ore from supplies + 2 on building the Blacksmith − 1 for strength 3.
    assert_eq!(g.player(0).supply.get(Good::Ore), 2);
    assert_eq!(g.player(0).dwarfs[1].weapon, Some(3));
}
