//! The per-player trust counts of the state (`docs/rules/above-and-below.md` G.5, B.4, G.2): per player, what a replay
//! had to accept as
//! declared — custom credits of every kind, custom and card bonuses, custom outcomes, declared
//! VP, and the totals gained from encounters — next to what it could check (paragraphs against
//! a cave table). One complete game; every count is pinned.

use serde_json::{json, Value};

use crate::common::*;

/// A synthetic card with only a `custom` effect (synthetic test data, not the printed game).
fn custom_house() -> Value {
    json!({"id": "house_01", "kind": "basic", "cost": 2,
           "effects": [{"effect": "custom", "text": "synthetic custom effect (test only)"}]})
}

fn game() -> String {
    let mut s = with_card(setup(2), "house_01", custom_house());
    // cave_02 without a paragraph table: its paragraph is declared, not checked (B.7).
    for cave in s["catalogue"]["caves"].as_array_mut().into_iter().flatten() {
        if cave["id"] == "cave_02" {
            cave.as_object_mut().map(|o| o.remove("paragraphs"));
        }
    }
    let p1_explores = turn(
        1,
        json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1,
               "rolls": [{"villager": "start_explorer", "die": 4}, {"villager": "start_quill", "die": 3}],
               "step": {"paragraph": 1, "option": 1, "thresholds": [3, 4],
                        "bonus": [{"kind": "custom", "n": 1, "text": "synthetic condition"}], "reached": 4,
                        "outcome": [{"get": "coins", "n": 2}, {"get": "good", "good": "fish", "n": 1},
                                    {"get": "potion", "n": 1}, {"get": "cider", "n": 1},
                                    {"get": "reputation", "n": 1}, {"get": "custom", "text": "synthetic reward"}]}}),
    );
    let p0_explores = turn(
        0,
        json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_02", "die": 2,
               "rolls": [{"villager": "start_explorer", "die": 1}, {"villager": "start_quill", "die": 1}],
               "step": {"paragraph": 7, "option": 1, "thresholds": [2],
                        "bonus": [{"kind": "card", "card": "house_01", "n": 1}], "reached": 2,
                        "outcome": [{"get": "villager", "villager": "villager_01", "from": "row", "which": "cheapest"},
                                    {"get": "cave", "card": "cave_03"},
                                    {"get": "card", "card": "house_02", "refill": "house_06"},
                                    {"get": "reputation", "n": -1}]}}),
    );
    let rest = json!({"type": "round_end", "villagers": ["villager_06"],
        "rest": [{"player": 0, "beds": ["start_hammer", "start_quill", "start_explorer"],
                  "custom": [{"card": "house_01", "beds": ["villager_01"]}]}]});
    let credit_and_build = json!({"type": "turn", "player": 0,
        "custom": [{"card": "house_01", "coins": 2, "goods": ["ore"], "potions": 1, "cider": 1, "reputation": 2}],
        "action": {"do": "build", "villager": "start_hammer", "card": "house_03", "refill": "house_07",
                   "custom": [{"card": "house_01", "discount": 1}]}});
    let train = turn(
        0,
        json!({"do": "train", "villager": "start_quill", "slot": 0, "recruit": "villager_02",
               "custom": [{"card": "house_01", "discount": 1}]}),
    );
    let mut e = vec![
        build(0, "house_01", Some("house_05")),
        p1_explores,
        p0_explores,
        pass(1),
        rest,
        pass(1),
        credit_and_build,
        train,
        pass(0),
        json!({"type": "round_end", "villagers": ["villager_07"]}),
    ];
    e.extend(passes(2, 0, 5));
    e.push(json!({"type": "declare", "player": 0, "card": "house_01", "vp": 4}));
    log_with(s, e)
}

/// G.5: the exact per-player report of a game with every kind of trusted item.
#[test]
fn g5_trust_report_counts_what_was_declared() {
    let log = game();
    let r = assert_ok(&log);
    assert_eq!(r.status, chronicle_above_and_below::Status::Complete);
    let st = state(&log);
    assert_eq!(
        player(&st, 0)["trust"],
        json!({
            "explorations": 1, "paragraphs_checked": 0,
            "custom_bonuses": 0, "card_bonuses": 1, "custom_outcomes": 0,
            "custom_credits": 4, "credit_coins": 2, "credit_goods": 1, "credit_potions": 1, "credit_cider": 1,
            "credit_reputation": 2, "credit_discount": 2, "credit_beds": 1,
            "card_vp_custom": 4,
            "encounter_coins": 0, "encounter_goods": 0, "encounter_potions": 0, "encounter_cider": 0,
            "encounter_reputation": -1, "encounter_villagers": 1, "encounter_caves": 1, "encounter_cards": 1
        }),
        "player 0: card bonus, four custom credits (turn, build, train, rest), a declaration; an unchecked paragraph"
    );
    assert_eq!(
        player(&st, 1)["trust"],
        json!({
            "explorations": 1, "paragraphs_checked": 1,
            "custom_bonuses": 1, "card_bonuses": 0, "custom_outcomes": 1,
            "custom_credits": 0, "credit_coins": 0, "credit_goods": 0, "credit_potions": 0, "credit_cider": 0,
            "credit_reputation": 0, "credit_discount": 0, "credit_beds": 0,
            "card_vp_custom": 0,
            "encounter_coins": 2, "encounter_goods": 1, "encounter_potions": 1, "encounter_cider": 1,
            "encounter_reputation": 1, "encounter_villagers": 0, "encounter_caves": 0, "encounter_cards": 0
        }),
        "player 1: a custom bonus and a custom outcome; a paragraph checked against cave_01's table"
    );
    // The trusted items were applied: P0's coins 7 − 2 (house_01) + 4 (income) + 2 (credit) − 3
    // (house_03, 4 − 1) − 1 (slot 0, 2 − 1), then 5 more incomes of 4 (rounds 2–6); the declared
    // VP are the row `card_vp_custom`.
    assert_eq!(player(&st, 0)["coins"], 7 - 2 + 4 + 2 - 3 - 1 + 5 * 4);
    let scores = r.scores.expect("scores");
    assert_eq!((scores[0].card_vp_custom, scores[1].card_vp_custom), (4, 0));
}

/// G.5 before any trusted item: every count is zero, and a checked paragraph is reported.
#[test]
fn g5_trust_report_of_a_fully_checked_exploration() {
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        json!({"paragraph": 1, "option": 1, "thresholds": [3], "reached": 3, "outcome": []}),
    );
    let t = player(&state(&log(2, vec![e])), 0)["trust"].clone();
    assert_eq!((t["explorations"].as_u64(), t["paragraphs_checked"].as_u64()), (Some(1), Some(1)));
    let others: Vec<(&String, &Value)> = t
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !k.starts_with("explorations") && *k != "paragraphs_checked")
        .collect();
    assert!(others.iter().all(|(_, v)| v.as_i64() == Some(0)), "{others:?}");
}
