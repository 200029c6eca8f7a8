//! Round structure: `docs/rules/caverna-reference.md` B.3 (reveal), B.7 (two players), B.8 (solo), C.2 (phases).

use crate::common::*;
use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::goods::Good;
use chronicle_caverna::{ErrorCode as E, Phase};
use serde_json::{json, Value};

fn two_player_round() -> Vec<Value> {
    vec![
        place(0, "logging", json!([])),
        place(1, "ore_mining", json!([])),
        place(0, "wood_gathering", json!([])),
        place(1, "drift_mining", json!([])),
    ]
}

/// B.3: one card is revealed per round; a card not yet revealed cannot be used.
#[test]
fn b3_round_card_is_available_from_its_round() {
    rejects(2, json!([place(0, "sheep_farming", json!([]))]), 0, E::SpaceNotAvailable);
    let mut e = two_player_round();
    e.push(place(0, "sheep_farming", json!([])));
    let g = ok(2, json!(e)).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Sheep), 1);
}

/// B.7: with two players Ruby mining gets no ruby in rounds 1–2; from round 3 on it does.
#[test]
fn b7_two_player_ruby_mining_starts_in_round_3() {
    let g = ok(2, json!([])).game.unwrap();
    assert!(g.spaces()[&ActionSpace::RubyMining].goods.is_empty());
    let e: Vec<Value> = (0..2).flat_map(|_| two_player_round()).collect();
    let g = ok(2, json!(e)).game.unwrap();
    assert_eq!(g.spaces()[&ActionSpace::RubyMining].goods.get(Good::Ruby), 1);
    // Three players: a ruby from round 1.
    let g = ok(3, json!([])).game.unwrap();
    assert_eq!(g.spaces()[&ActionSpace::RubyMining].goods.get(Good::Ruby), 1);
}

/// B.7 / H.16: a two-player game has 11 rounds and no round 9; it ends after round 12.
#[test]
fn b7_two_player_game_skips_round_9() {
    let mut e: Vec<Value> = Vec::new();
    let mut rounds_seen = Vec::new();
    for _ in 0..11 {
        let g = ok(2, json!(e.clone())).game.unwrap();
        rounds_seen.push(g.round());
        e.extend(two_player_round());
    }
    assert_eq!(rounds_seen, vec![1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]);
    // The third red token (round 12 here) needs every player's harvest choice (C.4).
    let r = ok(2, json!(e.clone()));
    assert_eq!(r.status, chronicle_caverna::Status::Incomplete);
    assert_eq!(r.game.unwrap().phase(), &Phase::HarvestChoice);
    e.push(json!({ "type": "harvest_choice", "player": 1, "phase": "field" }));
    e.push(json!({ "type": "harvest_choice", "player": 0, "phase": "breeding" }));
    let r = ok(2, json!(e));
    assert_eq!(r.status, chronicle_caverna::Status::Complete);
    assert!(r.game.unwrap().is_over());
}

/// B.3: revealing Family life flips Wish for children to Urgent wish for children.
#[test]
fn b3_family_life_flips_wish_for_children() {
    let mut e: Vec<Value> = Vec::new();
    for _ in 0..6 {
        e.extend(two_player_round());
    }
    // Round 7 reveals family_life (the 7th card of the two-player deck).
    let g = ok(2, json!(e)).game.unwrap();
    assert_eq!(g.round(), 7);
    assert!(g.spaces().contains_key(&ActionSpace::UrgentWishForChildren));
    assert!(!g.spaces().contains_key(&ActionSpace::WishForChildren));
    let mut with_gold = e.clone();
    with_gold.push(place(0, "urgent_wish_for_children", json!([{ "do": "gain" }])));
    let g = ok(2, json!(with_gold)).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Gold), 3);
    let mut grow_first = e;
    grow_first.push(place(0, "urgent_wish_for_children", json!([{ "do": "grow" }])));
    rejects(2, json!(grow_first), 24, E::ActionNotAllowed);
}

/// B.8: the solo game uses the 1-player spaces, no Starting player, and plays to round 12.
#[test]
fn b8_solo_spaces_and_length() {
    rejects(1, json!([place(0, "starting_player", json!([]))]), 0, E::SpaceNotAvailable);
    rejects(1, json!([place(0, "drift_mining", json!([]))]), 0, E::SpaceNotAvailable);
    let g = ok(1, json!([])).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Food), 2, "C.1: solo starts with 2 food");
    assert_eq!(g.spaces()[&ActionSpace::RubyMining].goods.get(Good::Ruby), 1, "rubies from round 1");
    let solo_round = || vec![place(0, "logging", json!([])), place(0, "wood_gathering", json!([]))];
    let e: Vec<Value> = (0..11).flat_map(|_| solo_round()).collect();
    let r = ok(1, json!(e));
    assert_eq!(r.status, chronicle_caverna::Status::Complete);
}

/// B.8 / H.5: solo spaces with 6 or more goods are cleared at the replenish step unless kept
/// with a `keep` entry (1 ruby each).
#[test]
fn b8_solo_clearing_and_keep() {
    // Ore mining accumulates 2 (1): 2, 3, 4, 5, 6 … untouched it reaches 6 after round 5.
    let solo_round = || vec![place(0, "logging", json!([])), place(0, "wood_gathering", json!([]))];
    let e: Vec<Value> = (0..5).flat_map(|_| solo_round()).collect();
    let g = ok(1, json!(e.clone())).game.unwrap();
    assert_eq!(g.round(), 6);
    // Round 6 began with ore mining at 6: cleared, then replenished with 2.
    assert_eq!(g.spaces()[&ActionSpace::OreMining].goods.get(Good::Ore), 2);
    let mut kept = e.clone();
    kept.push(json!({ "type": "keep", "player": 0, "spaces": ["ore_mining"] }));
    // The keep entry stands where the round-6 replenish step is: it costs a ruby (none held).
    rejects(1, json!(kept), 10, E::InsufficientGoods);
    let mut wrong = e;
    wrong.push(json!({ "type": "keep", "player": 0, "spaces": ["logging"] }));
    rejects(1, json!(wrong), 10, E::KeepInvalid);
}

/// C.2: after the work phase everyone returns home; the next round starts with the starting
/// player and every space is free again.
#[test]
fn c2_return_home_frees_spaces() {
    let g = ok(2, json!(two_player_round())).game.unwrap();
    assert!(g.spaces().values().all(|s| s.is_free()));
    assert!(g.players().iter().all(|p| p.dwarfs.iter().all(|d| d.space.is_none())));
    assert!(matches!(g.phase(), Phase::Work { to_move: 0 }));
}
