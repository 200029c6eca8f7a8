//! Work phase and action spaces: `docs/rules/caverna-reference.md` B.2, B.5, B.6, connectors (§0), H.4, H.7, H.10.

use crate::common::*;
use chronicle_caverna::goods::Good;
use chronicle_caverna::ErrorCode as E;
use serde_json::json;

/// B.6: turn order is clockwise from the starting player; one dwarf per turn.
#[test]
fn b6_placing_out_of_turn_is_rejected() {
    rejects(3, json!([place(1, "logging", json!([]))]), 0, E::NotYourTurn);
}

/// B.6: one dwarf per space.
#[test]
fn b6_occupied_space_is_rejected() {
    rejects(3, json!([place(0, "logging", json!([])), place(1, "logging", json!([]))]), 1, E::SpaceOccupied);
}

/// Messages name players by name and seat counted from 1, never by the log's 0-based `player`.
#[test]
fn messages_name_players_by_name_and_seat() {
    let message = |players, entries| run(players, entries).error.map(|e| e.message).unwrap_or_default();
    assert_eq!(message(3, json!([place(1, "logging", json!([]))])), "P0 (seat 1) is to place a dwarf");
    let taken = json!([place(0, "logging", json!([])), place(1, "logging", json!([]))]);
    assert_eq!(message(3, taken), "logging is occupied by P0 (seat 1)");
    let unknown = "`player` 7 names no seat: this game has 3 players (seats 1–3)";
    assert_eq!(message(3, json!([place(7, "logging", json!([]))])), unknown);
    let solo = "`player` 1 names no seat: this game has 1 player (seat 1)";
    assert_eq!(message(1, json!([place(1, "logging", json!([]))])), solo);
}

/// B.6: with a full round every player places both dwarfs, then round 2 starts with the
/// starting player.
#[test]
fn b6_round_ends_when_all_dwarfs_are_placed() {
    let spaces = ["logging", "ore_mining", "supplies", "wood_gathering", "sustenance", "drift_mining"];
    let entries: Vec<_> = spaces.iter().enumerate().map(|(i, s)| place(i % 3, s, json!([]))).collect();
    let r = ok(3, json!(entries));
    let g = r.game.unwrap();
    assert_eq!((g.round(), g.to_move()), (2, Some(0)));
}

/// B.2 `starting_player`: the token moves to the player who takes it, for the next round.
#[test]
fn b2_starting_player_takes_token_food_and_ore() {
    let spaces = ["logging", "starting_player", "supplies", "wood_gathering", "sustenance", "drift_mining"];
    let entries: Vec<_> = spaces.iter().enumerate().map(|(i, s)| place(i % 3, s, json!([]))).collect();
    let g = ok(3, json!(entries)).game.unwrap();
    assert_eq!(g.starting_player(), 1);
    assert_eq!(g.to_move(), Some(1));
    // Player 1: 1 starting food + 1 food on the space + 1 food from Sustenance; 2 ore (1–3p).
    assert_eq!(g.player(1).supply.get(Good::Food), 3);
    assert_eq!(g.player(1).supply.get(Good::Ore), 2);
}

/// B.2 `supplies`: fixed goods are taken automatically.
#[test]
fn b2_supplies_gives_fixed_goods() {
    let g = ok(2, json!([place(0, "supplies", json!([]))])).game.unwrap();
    let s = &g.player(0).supply;
    assert_eq!(
        [s.get(Good::Wood), s.get(Good::Stone), s.get(Good::Ore), s.get(Good::Food), s.get(Good::Gold)],
        [1, 1, 1, 2, 2]
    );
}

/// §0 general rule: a placement must carry out at least one action.
#[test]
fn b_a_placement_must_do_something() {
    rejects(2, json!([place(0, "slash_and_burn", json!([]))]), 0, E::NoAction);
    rejects(2, json!([place(0, "housework", json!([]))]), 0, E::NoAction);
}

/// H.10: Slash-and-burn in strict card order: the twin before the sow.
#[test]
fn h10_slash_and_burn_sow_must_follow_the_twin() {
    let twin = json!({ "do": "twin", "cells": [[3, 2], [3, 1]], "kinds": ["field", "meadow"] });
    let sow = json!({ "do": "sow", "grain": [[3, 2]] });
    // Grain for sowing from the Sustenance space (1–3 players: +1 grain).
    let ok_entries = json!([
        place(0, "sustenance", json!([])),
        place(1, "logging", json!([])),
        place(0, "slash_and_burn", json!([twin, sow])),
    ]);
    let g = ok(2, ok_entries).game.unwrap();
    assert_eq!(g.player(0).board.sown(), (3, 0));
    rejects(
        2,
        json!([
            place(0, "sustenance", json!([])),
            place(1, "logging", json!([])),
            place(0, "slash_and_burn", json!([sow, twin]))
        ]),
        2,
        E::SowInvalid,
    );
}

/// §0 "and then/or": a later part may not come before an earlier one.
#[test]
fn b3_ore_mine_construction_order_is_printed_order() {
    let exp = json!({ "do": "expedition", "loot": [] });
    // Round 1 is blacksmithing: forge then an expedition is fine (and then/or).
    let forge = json!({ "do": "forge", "strength": 1 });
    let r = ok(
        3,
        json!([
            place(0, "supplies", json!([])),
            place(1, "logging", json!([])),
            place(2, "wood_gathering", json!([])),
            place(0, "blacksmithing", json!([forge, exp])),
        ]),
    );
    // Strength 1 forged, +1 after the expedition (D.1).
    assert_eq!(r.game.unwrap().player(0).dwarfs[1].weapon, Some(2));
    rejects(
        3,
        json!([
            place(0, "supplies", json!([])),
            place(1, "logging", json!([])),
            place(2, "wood_gathering", json!([])),
            place(0, "blacksmithing", json!([exp, forge])),
        ]),
        3,
        E::ActionNotAllowed,
    );
}

/// B.2 `growth` is "either … or" without a Guest room.
#[test]
fn b2_growth_is_either_or() {
    let both = json!([{ "do": "gain" }, { "do": "grow" }]);
    rejects(4, json!([place(0, "growth", both)]), 0, E::ActionNotAllowed);
    let g = ok(4, json!([place(0, "growth", json!([{ "do": "gain" }]))])).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Gold), 2);
}

/// B.4: family growth needs a free room (the entry dwelling holds 2).
#[test]
fn b4_growth_needs_room() {
    rejects(4, json!([place(0, "growth", json!([{ "do": "grow" }]))]), 0, E::NoRoom);
}

/// B.6: the 1-ruby override of the weapon order, and no ruby when the dwarf is in order.
#[test]
fn b6_weapon_order_and_ruby_override() {
    let forge = json!({ "do": "forge", "strength": 1 });
    // Player 0 arms dwarf 0 on blacksmithing (needs ore: 2 from starting_player, 1–3p).
    let prefix = vec![
        place(0, "starting_player", json!([])),
        place(1, "logging", json!([])),
        place(0, "blacksmithing", json!([forge])),
        place(1, "wood_gathering", json!([])),
    ];
    let g = ok(2, json!(prefix.clone())).game.unwrap();
    assert_eq!(g.player(0).dwarfs[1].weapon, Some(1), "the unarmed dwarf 1 was the one in order");
    // Round 2: dwarf 0 is unarmed, dwarf 1 armed. Naming dwarf 1 first needs a ruby.
    let mut bad = prefix.clone();
    bad.push(json!({ "type": "place", "player": 0, "space": "supplies", "dwarf": 1, "actions": [] }));
    rejects(2, json!(bad), 4, E::DwarfOrder);
    let mut needless = prefix;
    needless
        .push(json!({ "type": "place", "player": 0, "space": "supplies", "dwarf": 0, "ruby": true, "actions": [] }));
    rejects(2, json!(needless), 4, E::DwarfOrder);
}

/// B.5: an Imitation space copies an opponent's space, paying food; never `starting_player`,
/// never a space of your own; accumulated goods are not copied.
#[test]
fn b5_imitation() {
    let imitate = |target: &str| json!([{ "do": "imitate", "space": target, "actions": [] }]);
    // 3 players: Imitation costs 4 food. Player 2 starts with 2 food: get more first.
    let base = vec![place(0, "supplies", json!([])), place(1, "starting_player", json!([]))];
    let mut e = base.clone();
    e.push(place(2, "imitation", imitate("supplies")));
    rejects(3, json!(e), 2, E::InsufficientGoods);
    let mut e = base.clone();
    e.push(place(2, "imitation", imitate("starting_player")));
    rejects(3, json!(e), 2, E::InsufficientGoods);
    // 4 players: Imitation costs 2 food; player 3 starts with 3 food.
    let four = vec![
        place(0, "growth", json!([{ "do": "gain" }])),
        place(1, "starting_player", json!([])),
        place(2, "logging", json!([])),
    ];
    let mut e = four.clone();
    e.push(place(3, "imitation", imitate("starting_player")));
    rejects(4, json!(e), 3, E::ImitationTarget);
    let mut e = four.clone();
    e.push(place(3, "imitation", imitate("ore_mining")));
    rejects(4, json!(e), 3, E::ImitationTarget);
    // Logging's wood went to player 2: imitating it without the expedition does nothing.
    let mut e = four.clone();
    e.push(place(3, "imitation", imitate("logging")));
    rejects(4, json!(e), 3, E::NoAction);
    let mut e = four;
    e.push(place(3, "imitation", json!([{ "do": "imitate", "space": "growth", "actions": [{ "do": "gain" }] }])));
    let g = ok(4, json!(e)).game.unwrap();
    assert_eq!(g.player(3).supply.get(Good::Gold), 2, "fixed goods of the copied space");
    assert_eq!(g.player(3).supply.get(Good::Food), 3 - 2 + 1, "paid 2 food, gained 1");
}

/// H.4: Fence building allows one small and one large pasture, not two of a size.
#[test]
fn h4_fence_building_one_small_and_one_large() {
    // The rule lives in the flow table; the 5-player space exists only from 5 players.
    rejects(4, json!([place(0, "fence_building", json!([]))]), 0, E::SpaceNotAvailable);
}

/// B.2 `weekly_market`: 4 gold, then at most one of each good at its price (H.12 dog 2).
#[test]
fn b2_weekly_market_prices() {
    let buy = |goods: serde_json::Value| json!([{ "do": "buy", "goods": goods }]);
    let g = ok(5, json!([place(0, "weekly_market", buy(json!(["dog", "wood", "stone"])))])).game.unwrap();
    let s = &g.player(0).supply;
    assert_eq!((s.get(Good::Gold), s.get(Good::Dog), s.get(Good::Wood)), (0, 1, 1));
    rejects(5, json!([place(0, "weekly_market", buy(json!(["wood", "wood"])))]), 0, E::ActionNotAllowed);
    rejects(5, json!([place(0, "weekly_market", buy(json!(["cattle", "dog"])))]), 0, E::InsufficientGoods);
}
