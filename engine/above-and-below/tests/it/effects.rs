//! The closed effect vocabulary (`docs/rules/above-and-below.md` B.3), each effect applied at its moment, on
//! synthetic cards changed for the test (synthetic test data, not the printed game). Effects
//! shown elsewhere: beds (round_end, example), income_coins, income_potions, goods_refill
//! (round_end), vp and vp_per (scoring, golden games), income_per_stored (golden-2p-rich),
//! coin_on_build (H.6), rerolls (E.5, H.7), cider_as_coin (H.5), custom (trust).

use serde_json::{json, Value};

use crate::common::*;

fn house_01(effects: Value) -> Value {
    with_card(setup(2), "house_01", json!({"id": "house_01", "kind": "basic", "cost": 2, "effects": effects}))
}

/// D.5.5 when-gained effects: `goods_once` puts tokens on the card (harvestable, never
/// refilled), `potions_once` and `reputation_once` pay once.
#[test]
fn b3_when_gained_effects_apply_once() {
    let s = house_01(json!([{"effect": "goods_once", "good": "pot", "n": 2}, {"effect": "potions_once", "n": 2},
                           {"effect": "reputation_once", "n": 1}]));
    let e = vec![
        build(0, "house_01", Some("house_05")),
        pass(1),
        turn(
            0,
            json!({"do": "harvest", "villagers": ["start_quill", "start_explorer"], "take": ["house_01", "house_01"]}),
        ),
        json!({"type": "round_end"}),
    ];
    let l = log_with(s, e);
    let built = player(&state_until(&l, 1), 0).clone();
    assert_eq!(built["houses"][1]["tokens"], json!(["pot", "pot"]));
    assert_eq!((built["potions"].as_u64(), built["reputation"].as_i64()), (Some(2), Some(1)));
    let p = player(&state(&l), 0).clone();
    assert_eq!(p["reserve"]["pot"], 2, "a card with 2 tokens gives both to two villagers (D.4.2)");
    assert_eq!(p["houses"][1]["tokens"], json!([]), "goods_once is never refilled (F.7)");
    assert_eq!((p["potions"].as_u64(), p["reputation"].as_i64()), (Some(2), Some(1)), "once only");
}

/// `coin_on_explore`: +n after each successful exploration, nothing after a failure.
#[test]
fn b3_coin_on_explore_pays_on_success_only() {
    let s = house_01(json!([{"effect": "coin_on_explore", "n": 1}]));
    let win = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        json!({"paragraph": 1, "option": 1, "thresholds": [3], "reached": 3, "outcome": []}),
    );
    let lose = explore(
        0,
        "cave_02",
        1,
        [1, 1],
        json!({"paragraph": 23, "option": 1, "thresholds": [4], "reached": null, "outcome": []}),
    );
    let l = log_with(
        s,
        vec![build(0, "house_01", Some("house_05")), pass(1), win, json!({"type": "round_end"}), pass(1), lose],
    );
    assert_eq!(player(&state_until(&l, 3), 0)["coins"], 7 - 2 + 1);
    assert_eq!(player(&state(&l), 0)["coins"], 7 - 2 + 1 + 4, "no coin for the failure");
}

/// `potion_as_coin` (D.5.3, H.5): potions pay 1 coin each to the supply; the payment object must
/// add up to the price.
#[test]
fn b3_potion_as_coin_pays_the_supply() {
    let s = house_01(json!([{"effect": "potion_as_coin"}, {"effect": "potions_once", "n": 3}]));
    let pay = |with: Value| {
        turn(
            0,
            json!({"do": "build", "villager": "start_hammer", "card": "house_02", "refill": "house_06", "pay": with}),
        )
    };
    let base = vec![build(0, "house_01", Some("house_05")), pass(1), pass(0), json!({"type": "round_end"}), pass(1)];
    let st = state(&log_with(s.clone(), [base.clone(), vec![pay(json!({"coins": 1, "potions": 2}))]].concat()));
    assert_eq!((player(&st, 0)["coins"].as_u64(), player(&st, 0)["potions"].as_u64()), (Some(7 - 2 + 4 - 1), Some(1)));
    assert_error(&log_with(s, [base, vec![pay(json!({"coins": 1, "potions": 1}))]].concat()), Some(5), "E_PAYMENT");
}

/// `train_to_ready` (D.6.3): a trained villager arrives ready; one gained from an encounter still
/// arrives exhausted (H.12).
#[test]
fn b3_train_to_ready() {
    let s = house_01(json!([{"effect": "train_to_ready"}]));
    let gain = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        json!({"paragraph": 1, "option": 1, "thresholds": [3], "reached": 3,
        "outcome": [{"get": "villager", "villager": "villager_01", "from": "row", "which": "cheapest"}]}),
    );
    let train = turn(0, json!({"do": "train", "villager": "start_quill", "slot": 0, "recruit": "villager_02"}));
    let l = log_with(
        s,
        vec![
            build(0, "house_01", Some("house_05")),
            pass(1),
            gain,
            json!({"type": "round_end", "villagers": ["villager_06"]}),
            pass(1),
            train,
        ],
    );
    assert_eq!(player(&state_until(&l, 3), 0)["villagers"][3], json!({"id": "villager_01", "state": "exhausted"}));
    let p = player(&state(&l), 0).clone();
    assert_eq!(p["villagers"][4], json!({"id": "villager_02", "state": "ready"}));
    assert_eq!(p["coins"], 7 - 2 + 4 - 2);
}

/// A.4 `quill_plus` (D.6.2): the trainer pays the slot's cost − 1; `good_reputation` +1 on arrival.
#[test]
fn a4_quill_plus_pays_one_less() {
    let first = turn(0, json!({"do": "train", "villager": "start_quill", "slot": 4, "recruit": "villager_05"}));
    let second = turn(0, json!({"do": "train", "villager": "villager_05", "slot": 0, "recruit": "villager_01"}));
    let l = log(
        2,
        vec![first, pass(1), pass(0), json!({"type": "round_end", "villagers": ["villager_06"]}), pass(1), second],
    );
    let p = player(&state(&l), 0).clone();
    assert_eq!(p["coins"], 7 - 5 + 4 - 1, "slot 4 costs 5; slot 0 costs 2 − 1");
    assert_eq!(p["reputation"], 1);
}
