//! Harvests: `docs/rules/caverna-reference.md` C.3 (field, feeding, breeding), C.4 (schedule), F.3, F.6.

use crate::common::*;
use chronicle_caverna::goods::Good;
use chronicle_caverna::{ErrorCode as E, Phase};
use serde_json::{json, Value};

/// One round of two-player placements on accumulation spaces that give no food.
fn quiet_round() -> Vec<Value> {
    vec![
        place(0, "logging", json!([])),
        place(1, "ore_mining", json!([])),
        place(0, "wood_gathering", json!([])),
        place(1, "drift_mining", json!([])),
    ]
}

fn rounds(n: usize) -> Vec<Value> {
    (0..n).flat_map(|_| quiet_round()).collect()
}

/// C.4: no harvest in rounds 1–2; round 3 feeds 2 food per dwarf; each missing food is a
/// begging marker (F.6).
#[test]
fn c4_first_harvest_is_after_round_3() {
    let g = ok(2, json!(rounds(2))).game.unwrap();
    assert_eq!((g.round(), g.player(0).begging), (3, 0));
    let g = ok(2, json!(rounds(3))).game.unwrap();
    // 1 starting food, 4 due.
    assert_eq!((g.round(), g.player(0).begging, g.player(0).supply.get(Good::Food)), (4, 3, 0));
}

/// C.4: round 4 costs 1 food per dwarf and has no field or breeding phase.
#[test]
fn c4_round_4_feeds_one_food_per_dwarf() {
    let g = ok(2, json!(rounds(4))).game.unwrap();
    assert_eq!(g.player(0).begging, 3 + 2);
}

/// C.3: a `feed` entry's conversions follow F.4, and each player gives at most one.
#[test]
fn c3_feed_entries_are_checked_and_once_per_player() {
    let mut e = rounds(3);
    // In the round-3 feeding window, wood cannot be converted to food.
    e.push(json!({ "type": "feed", "player": 1, "actions": [{ "do": "convert", "goods": { "wood": 1 } }] }));
    rejects(2, json!(e), 12, E::ConversionInvalid);
    let mut e = rounds(3);
    e.push(json!({ "type": "feed", "player": 0, "actions": [] }));
    e.push(json!({ "type": "feed", "player": 0, "actions": [] }));
    rejects(2, json!(e), 13, E::DuplicateEntry);
}

/// LOG-FORMAT: at the end of the entries the feeding defaults apply, and the replay waits at
/// the next required decision.
#[test]
fn end_of_log_applies_feeding_defaults() {
    let mut e = rounds(2);
    e.extend(quiet_round());
    let g = ok(2, json!(e)).game.unwrap();
    assert!(matches!(g.phase(), Phase::Work { .. }));
    assert_eq!(g.round(), 4);
}

/// C.3 field phase: each sown field gives one crop per harvest.
#[test]
fn c3_field_phase_takes_one_crop_per_field() {
    let twin = json!({ "do": "twin", "cells": [[3, 2], [3, 1]], "kinds": ["field", "meadow"] });
    let sow = json!({ "do": "sow", "grain": [[3, 2]] });
    let mut e = vec![
        place(0, "sustenance", json!([])),
        place(1, "logging", json!([])),
        place(0, "slash_and_burn", json!([twin, sow])),
        place(1, "wood_gathering", json!([])),
    ];
    e.extend(rounds(2));
    let g = ok(2, json!(e)).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Grain), 1);
    assert_eq!(g.player(0).board.sown(), (2, 0));
}

/// F.3: a pair of sheep breeds one lamb if it can be housed (entry dwelling holds 2 … so no).
#[test]
fn f3_newborns_need_room() {
    // Round 2 is sheep farming (1 sheep); take it in round 2 and 3 → 2 sheep in the entry
    // dwelling (capacity 2): no room for a lamb at the round-3 harvest.
    let mut e = rounds(1);
    e.extend(vec![
        place(0, "sheep_farming", json!([])),
        place(1, "ore_mining", json!([])),
        place(0, "wood_gathering", json!([])),
        place(1, "drift_mining", json!([])),
        place(0, "sheep_farming", json!([])),
        place(1, "ore_mining", json!([])),
        place(0, "wood_gathering", json!([])),
        place(1, "drift_mining", json!([])),
    ]);
    let g = ok(2, json!(e)).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Sheep), 2);
}

/// F.1: animals that cannot be housed reject the entry unless converted or released in it.
#[test]
fn f1_unhoused_animals_reject_the_entry() {
    let buy = json!({ "do": "buy", "goods": ["sheep", "boar"] });
    rejects(5, json!([place(0, "weekly_market", json!([buy]))]), 0, E::AnimalsUnhoused);
    let release = json!({ "do": "release", "animals": { "boar": 1 } });
    ok(5, json!([place(0, "weekly_market", json!([buy, release]))]));
    let convert = json!({ "do": "convert", "goods": { "boar": 1 } });
    let g = ok(5, json!([place(0, "weekly_market", json!([buy, convert]))])).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Food), 1 + 2, "1 starting food + 2 for a boar (F.4)");
}
