//! Home-board tiles: `docs/rules/caverna-reference.md` A.2 (adjacency), A.3 (bonuses), A.4 (placement), E (furnishing).

use crate::common::*;
use chronicle_caverna::board::{Coord, Tile};
use chronicle_caverna::goods::Good;
use chronicle_caverna::ErrorCode as E;
use serde_json::{json, Value};

fn twin(cells: Value, kinds: Value) -> Value {
    json!({ "do": "twin", "cells": cells, "kinds": kinds })
}

/// A.2: the first forest tile must cover the space in front of the cave entrance.
#[test]
fn a2_first_forest_tile_covers_the_cave_entrance_front() {
    rejects(
        2,
        json!([place(0, "clearing", json!([twin(json!([[0, 0], [0, 1]]), json!(["meadow", "field"]))]))]),
        0,
        E::NotAdjacent,
    );
    ok(2, json!([place(0, "clearing", json!([twin(json!([[3, 2], [2, 2]]), json!(["meadow", "field"]))]))]));
}

/// A.2: mountain tiles adjoin the cave system; the cliff is not crossed except on row 3.
#[test]
fn a2_mountain_twin_must_adjoin_the_cave() {
    rejects(
        2,
        json!([place(0, "excavation", json!([twin(json!([[0, 4], [0, 5]]), json!(["cavern", "tunnel"]))]))]),
        0,
        E::NotAdjacent,
    );
    ok(2, json!([place(0, "excavation", json!([twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]))]))]));
}

/// A.2: the two halves of a twin are orthogonally adjacent; diagonal is not.
#[test]
fn a2_twin_halves_must_be_adjacent() {
    rejects(
        2,
        json!([place(0, "excavation", json!([twin(json!([[1, 3], [2, 4]]), json!(["cavern", "tunnel"]))]))]),
        0,
        E::NotAdjacent,
    );
}

/// A.3: covering a water source gives food; covering a boar preserve gives a boar.
#[test]
fn a3_placement_bonuses() {
    let g = ok(2, json!([place(0, "excavation", json!([twin(json!([[3, 4], [2, 4]]), json!(["tunnel", "cavern"]))]))]))
        .game
        .unwrap();
    // 1 starting food + 1 food from the water source.
    assert_eq!(g.player(0).supply.get(Good::Food), 2);
    let g = ok(2, json!([place(0, "clearing", json!([twin(json!([[3, 2], [3, 1]]), json!(["meadow", "field"]))]))]))
        .game
        .unwrap();
    assert_eq!(g.player(0).supply.get(Good::Food), 2, "forest water at [3, 1]");
}

/// A.4: drift mining places only the Cavern/Tunnel side; wrong terrain and occupied cells.
#[test]
fn a4_twin_kinds_and_terrain() {
    rejects(
        2,
        json!([place(0, "drift_mining", json!([twin(json!([[1, 3], [0, 3]]), json!(["cavern", "cavern"]))]))]),
        0,
        E::BadTileKinds,
    );
    rejects(
        2,
        json!([place(0, "excavation", json!([twin(json!([[3, 2], [2, 2]]), json!(["cavern", "tunnel"]))]))]),
        0,
        E::WrongTerrain,
    );
    rejects(
        2,
        json!([place(0, "excavation", json!([twin(json!([[2, 3], [1, 3]]), json!(["cavern", "tunnel"]))]))]),
        0,
        E::CellOccupied,
    );
}

/// A.4 / E.7: without an Office room no tile may overhang the board.
#[test]
fn a4_overhang_needs_the_office_room() {
    rejects(
        2,
        json!([place(0, "excavation", json!([twin(json!([[3, 5], [3, 6]]), json!(["cavern", "tunnel"]))]))]),
        0,
        E::CellOffBoard,
    );
    rejects(
        2,
        json!([place(0, "excavation", json!([twin(json!([[3, 5], [3, 9]]), json!(["cavern", "tunnel"]))]))]),
        0,
        E::CellOffBoard,
    );
}

/// A.4: stables: never in the mountain or on a field; at most 3 (sheep farming, 1 stone).
#[test]
fn a4_stables() {
    let stable = |at: Value| json!([{ "do": "stable", "at": at }]);
    let prefix = || {
        vec![
            place(0, "supplies", json!([])),
            place(1, "logging", json!([])),
            place(0, "drift_mining", json!([])),
            place(1, "wood_gathering", json!([])),
        ]
    };
    // Round 2 is sheep farming (the second card).
    let mut e = prefix();
    e.push(place(0, "sheep_farming", stable(json!([0, 0]))));
    let g = ok(2, json!(e)).game.unwrap();
    assert!(g.player(0).board.has_stable(Coord::at(0, 0)));
    let mut e = prefix();
    e.push(place(0, "sheep_farming", stable(json!([0, 4]))));
    rejects(2, json!(e), 4, E::StableNotAllowed);
}

/// E / B.4: furnishing needs an empty cavern, the cost, and a unique tile not yet built.
#[test]
fn e_furnishing_cost_cell_and_uniqueness() {
    let furnish = |tile: &str, at: Value| json!([{ "do": "furnish", "tile": tile, "at": at }]);
    // Carpenter costs 1 stone: supplies gives 1 stone.
    let e = json!([
        place(0, "supplies", json!([])),
        place(1, "logging", json!([])),
        place(0, "housework", furnish("carpenter", json!([2, 3])))
    ]);
    let g = ok(2, e).game.unwrap();
    assert_eq!(g.player(0).board.tile(Coord::at(2, 3)).map(Tile::id), Some("furnished"));
    // Not enough goods.
    rejects(2, json!([place(0, "housework", furnish("carpenter", json!([2, 3])))]), 0, E::InsufficientGoods);
    // Not a cavern.
    let e = json!([
        place(0, "supplies", json!([])),
        place(1, "logging", json!([])),
        place(0, "housework", furnish("carpenter", json!([1, 3])))
    ]);
    rejects(2, e, 2, E::FurnishingCell);
    // Unique: player 1 cannot build the carpenter too.
    let e = json!([
        place(0, "supplies", json!([])),
        place(1, "drift_mining", json!([])),
        place(0, "housework", furnish("carpenter", json!([2, 3]))),
        place(1, "logging", json!([])),
        place(0, "ore_mining", json!([])),
        place(1, "housework", furnish("carpenter", json!([2, 3])))
    ]);
    rejects(2, e, 5, E::FurnishingUnavailable);
}

/// H.21: the introductory set rejects tiles outside it.
#[test]
fn h21_introductory_set_rejects_full_only_tiles() {
    let mut setup = setup(2);
    setup["furnishings"] = json!("introductory");
    let log = json!({ "format": "caverna-log/1", "setup": setup, "entries": [
        place(0, "supplies", json!([])), place(1, "logging", json!([])),
        place(0, "housework", json!([{ "do": "furnish", "tile": "builder", "at": [2, 3] }]))
    ]});
    let r = chronicle_caverna::replay(log.to_string().as_bytes());
    assert_eq!(r.error.map(|e| (e.entry, e.code)), Some((Some(2), E::FurnishingUnavailable)));
}
