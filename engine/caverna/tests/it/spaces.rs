//! More action spaces and tile limits: `docs/rules/caverna-reference.md` B.2 (Strip mining, Depot, Large depot, Ruby
//! mining), A.4 (fields and stables), F.3 (`breed` entries), F.5 (ruby tiles).

use crate::common::*;
use chronicle_caverna::board::{Coord, Tile};
use chronicle_caverna::goods::Good;
use chronicle_caverna::ErrorCode as E;
use serde_json::{json, Value};

fn supply(players: usize, entries: Value, good: Good) -> u32 {
    ok(players, entries).game.unwrap().player(0).supply.get(good)
}

/// B.2: accumulated goods and fixed extras of the 3- and 5–7-player spaces, round 1.
#[test]
fn b2_accumulating_spaces_round_one() {
    // Strip mining (3p): 1 ore when empty, plus 2 wood from the supply.
    let e = json!([place(0, "strip_mining", json!([]))]);
    assert_eq!((supply(3, e.clone(), Good::Ore), supply(3, e, Good::Wood)), (1, 2));
    // Depot (5p): 1 wood + 1 ore.
    let e = json!([place(0, "depot", json!([]))]);
    assert_eq!((supply(5, e.clone(), Good::Wood), supply(5, e, Good::Ore)), (1, 1));
    // Large depot (7p): 1 stone + 1 ore + 2 wood when empty.
    let e = json!([place(0, "large_depot", json!([]))]);
    let g = ok(7, e).game.unwrap();
    let s = &g.player(0).supply;
    assert_eq!((s.get(Good::Stone), s.get(Good::Ore), s.get(Good::Wood)), (1, 1, 2));
    // Ruby mining (3p): a ruby from round 1.
    assert_eq!(supply(3, json!([place(0, "ruby_mining", json!([]))]), Good::Ruby), 1);
    // Forest exploration (4p): 2 wood and 2 food.
    let e = json!([place(0, "forest_exploration", json!([]))]);
    assert_eq!((supply(4, e.clone(), Good::Wood), supply(4, e, Good::Food)), (2, 1 + 2));
}

/// A.4: a field may never share a space with a stable; the meadow half may.
#[test]
fn a4_no_field_under_a_stable() {
    let prefix = vec![
        place(0, "supplies", json!([])),
        place(1, "logging", json!([])),
        place(0, "wood_gathering", json!([])),
        place(1, "ore_mining", json!([])),
        place(0, "sheep_farming", json!([{ "do": "stable", "at": [3, 2] }])),
        place(1, "drift_mining", json!([])),
        place(0, "excavation", json!([])),
        place(1, "logging", json!([])),
    ];
    let mut bad = prefix.clone();
    bad.push(place(0, "clearing", json!([{ "do": "twin", "cells": [[3, 2], [3, 1]], "kinds": ["field", "meadow"] }])));
    rejects(2, json!(bad), 8, E::CellOccupied);
    let mut good = prefix;
    good.push(place(0, "clearing", json!([{ "do": "twin", "cells": [[3, 2], [3, 1]], "kinds": ["meadow", "field"] }])));
    let g = ok(2, json!(good)).game.unwrap();
    let b = &g.player(0).board;
    assert_eq!(b.tile(Coord::at(3, 2)), Some(Tile::Meadow));
    assert!(b.has_stable(Coord::at(3, 2)));
}

/// F.5: a single Meadow bought with a ruby goes in front of the cave entrance first.
#[test]
fn f5_ruby_meadow() {
    let e = |at: Value| {
        json!([
            place(0, "starting_player", json!([])),
            free(0, json!([{ "do": "ruby_tile", "tile": "meadow", "at": at }]))
        ])
    };
    let g = ok(4, e(json!([3, 2]))).game.unwrap();
    assert_eq!(g.player(0).board.tile(Coord::at(3, 2)), Some(Tile::Meadow));
    assert_eq!(g.player(0).supply.get(Good::Ruby), 0);
    rejects(4, e(json!([1, 1])), 1, E::NotAdjacent);
    rejects(4, e(json!([1, 4])), 1, E::WrongTerrain);
}

/// F.3: a `breed` entry may only name types with two or more animals.
#[test]
fn f3_breed_entry_needs_parents() {
    let round = || {
        vec![
            place(0, "logging", json!([])),
            place(1, "ore_mining", json!([])),
            place(0, "wood_gathering", json!([])),
            place(1, "drift_mining", json!([])),
        ]
    };
    let mut e: Vec<Value> = (0..3).flat_map(|_| round()).collect();
    e.push(json!({ "type": "breed", "player": 0, "animals": ["sheep"] }));
    rejects(2, json!(e.clone()), 12, E::BreedInvalid);
    // An empty choice is legal: no newborns.
    e.pop();
    e.push(json!({ "type": "breed", "player": 0, "animals": [] }));
    ok(2, json!(e));
}
