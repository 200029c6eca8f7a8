//! Exploration (`docs/rules/above-and-below.md` E, D.10 Cave Cat).

use serde_json::{json, Value};

use crate::common::*;

/// The step of a cave_01 exploration with die 1 (paragraph 1 by the synthetic table).
fn step(thresholds: Value, reached: Value, outcome: Value) -> Value {
    json!({"paragraph": 1, "option": 1, "thresholds": thresholds, "reached": reached, "outcome": outcome})
}

/// E.8: success: reward, cave owned; explorer 4 → 2 lanterns, quill 3 → 1 (synthetic profiles).
#[test]
fn e8_success_gives_the_reward_and_the_cave() {
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([2, 3]), json!(3), json!([{"get": "coins", "n": 2}, {"get": "potion", "n": 1}])),
    );
    let st = state(&log(2, vec![e]));
    let p = player(&st, 0);
    assert_eq!((p["coins"].as_u64(), p["potions"].as_u64()), (Some(9), Some(1)));
    assert_eq!(p["caves"][0]["id"], "cave_01");
    assert_eq!(p["villagers"][1]["state"], "exhausted");
}

/// E.8: failure: no cave, the cave goes to the bottom of the deck; penalty items only.
#[test]
fn e8_failure_puts_the_cave_under_the_deck() {
    let e = explore(0, "cave_01", 1, [1, 1], step(json!([4]), json!(null), json!([{"get": "reputation", "n": -1}])));
    let st = state(&log(2, vec![e]));
    assert_eq!(player(&st, 0)["caves"], json!([]));
    assert_eq!(player(&st, 0)["reputation"], -1);
    let reward_on_failure =
        explore(0, "cave_01", 1, [1, 1], step(json!([4]), json!(null), json!([{"get": "coins", "n": 1}])));
    assert_error(&log(2, vec![reward_on_failure]), Some(0), "E_OUTCOME");
}

/// E.1–E.10: checks, table-driven.
#[test]
fn e_checks() {
    let ok_step = step(json!([2]), json!(2), json!([]));
    let cases: Vec<(Value, &str)> = vec![
        (
            turn(
                0,
                json!({"do": "explore", "party": ["start_explorer"], "cave": "cave_01", "die": 1, "rolls": [{"villager": "start_explorer", "die": 1}], "step": ok_step}),
            ),
            "E_PARTY_SIZE",
        ),
        (
            turn(
                0,
                json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1, "rolls": [{"villager": "start_explorer", "die": 1}], "step": ok_step}),
            ),
            "E_ROLLS",
        ),
        (
            turn(
                0,
                json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1, "step": ok_step}),
            ),
            "E_RANDOM_MISSING",
        ),
        (explore(0, "cave_01", 7, [4, 3], ok_step.clone()), "E_DIE"),
        (explore(0, "cave_01", 1, [0, 3], ok_step.clone()), "E_DIE"),
        (explore(0, "cave_01", 2, [4, 3], ok_step.clone()), "E_PARAGRAPH"),
        (explore(0, "cave_99", 1, [4, 3], ok_step.clone()), "E_CATALOGUE"),
        (explore(0, "cave_01", 1, [4, 3], step(json!([3, 2]), json!(2), json!([]))), "E_THRESHOLD"),
        (explore(0, "cave_01", 1, [4, 3], step(json!([2, 3]), json!(2), json!([]))), "E_THRESHOLD"),
        (explore(0, "cave_01", 1, [4, 3], step(json!([2, 4]), json!(4), json!([]))), "E_LANTERNS"),
        (explore(0, "cave_01", 1, [4, 3], step(json!([]), json!(null), json!([]))), "E_THRESHOLD"),
        (
            explore(
                0,
                "cave_01",
                1,
                [4, 3],
                json!({"paragraph": 1, "option": 1, "thresholds": [2], "efforts": ["start_hammer"], "reached": 2, "outcome": []}),
            ),
            "E_EFFORT",
        ),
        (
            explore(
                0,
                "cave_01",
                1,
                [4, 3],
                json!({"paragraph": 1, "option": 1, "thresholds": [2], "bonus": [{"kind": "per_skill", "skill": "hammer", "n": 1}], "reached": 2, "outcome": []}),
            ),
            "E_BONUS",
        ),
        (
            explore(
                0,
                "cave_01",
                1,
                [4, 3],
                json!({"paragraph": 1, "option": 1, "thresholds": [2], "bonus": [{"kind": "card", "card": "start_house", "n": 1}], "reached": 2, "outcome": []}),
            ),
            "E_CUSTOM",
        ),
        (
            explore(
                0,
                "cave_01",
                1,
                [1, 1],
                json!({"paragraph": 1, "option": 1, "thresholds": [5], "reached": null, "outcome": [], "then": {"paragraph": 101, "option": 1, "thresholds": [], "reached": 0, "outcome": []}}),
            ),
            "E_OUTCOME",
        ),
        (
            explore(
                0,
                "cave_01",
                1,
                [4, 3],
                step(json!([2]), json!(2), json!([{"get": "villager", "villager": "glogo", "from": "row"}])),
            ),
            "E_OUTCOME",
        ),
        (
            explore(
                0,
                "cave_01",
                1,
                [4, 3],
                step(json!([2]), json!(2), json!([{"get": "lose_good", "item": "fish", "n": 1}])),
            ),
            "E_OUTCOME",
        ),
        (
            explore(0, "cave_01", 1, [4, 3], step(json!([2]), json!(2), json!([{"get": "reputation", "n": 0}]))),
            "E_OUTCOME",
        ),
        (explore(0, "cave_01", 1, [4, 3], step(json!([2]), json!(2), json!([{"get": "teleport"}]))), "E_UNKNOWN_ID"),
        (
            explore(0, "cave_01", 1, [4, 3], json!({"paragraph": 1, "option": 1, "thresholds": [2], "outcome": []})),
            "E_FORMAT",
        ),
    ];
    for (entry, code) in cases {
        assert_error(&log(2, vec![entry.clone()]), Some(0), code);
    }
}

/// E.6: last efforts add a lantern each and injure; E.7: a checked bonus adds lanterns.
#[test]
fn e6_e7_efforts_and_bonuses() {
    let e = explore(
        0,
        "cave_01",
        1,
        [1, 1],
        json!({"paragraph": 1, "option": 1, "thresholds": [3],
        "bonus": [{"kind": "per_skill", "skill": "quill", "n": 1}], "efforts": ["start_quill"], "reached": 3, "outcome": []}),
    );
    let st = state(&log(2, vec![e]));
    let p = player(&st, 0);
    assert_eq!(p["villagers"][1], json!({"id": "start_quill", "state": "injured"}));
    assert_eq!(p["caves"][0]["id"], "cave_01");
}

/// E.5: rerolls need a `rerolls` effect; with one, a lantern die is replaced.
#[test]
fn e5_rerolls() {
    let mut e = explore(0, "cave_01", 1, [1, 1], step(json!([3]), json!(null), json!([])));
    e["action"]["rerolls"] = json!([{"villager": "start_explorer", "die": 6}]);
    assert_error(&log(2, vec![e.clone()]), Some(0), "E_REROLL");
    // With a `rerolls` effect (house_01 made to carry one): explorer 1 → 6 gives 2, quill 1 → 0.
    let s = with_card(
        setup(2),
        "house_01",
        json!({"id": "house_01", "kind": "basic", "cost": 2, "effects": [{"effect": "rerolls", "n": 1}]}),
    );
    let mut good = e.clone();
    good["action"]["step"] = step(json!([2]), json!(2), json!([]));
    let st = state(&log_with(s.clone(), vec![build(0, "house_01", Some("house_05")), pass(1), good.clone()]));
    assert_eq!(player(&st, 0)["caves"][0]["id"], "cave_01");
    let mut twice = good;
    twice["action"]["rerolls"] =
        json!([{"villager": "start_explorer", "die": 6}, {"villager": "start_quill", "die": 6}]);
    assert_error(&log_with(s, vec![build(0, "house_01", Some("house_05")), pass(1), twice]), Some(2), "E_REROLL");
}

/// E.9: a chain; the last step decides.
#[test]
fn e9_continuations() {
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        json!({"paragraph": 1, "option": 2, "thresholds": [], "reached": 0,
        "outcome": [{"get": "coins", "n": 1}],
        "then": {"paragraph": 150, "option": 1, "thresholds": [9], "reached": null, "outcome": [{"get": "lose_coins", "n": 100}]}}),
    );
    let st = state(&log(2, vec![e]));
    let p = player(&st, 0);
    assert_eq!(p["coins"], 0, "+1 then lose all");
    assert_eq!(p["caves"], json!([]));
}

/// D.10: a Cave Cat acts only with an obedience die 3–6; a failed cat goes to `cat_fails`.
#[test]
fn d10_cave_cat_obedience() {
    // Player 0 gains cave_cat_1 from an encounter, then uses it after the round end.
    let gain = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([2]), json!(3), json!([{"get": "villager", "villager": "cave_cat_1", "from": "special"}])),
    );
    let mut base = vec![gain];
    base[0]["action"]["step"]["reached"] = json!(3);
    base[0]["action"]["step"]["thresholds"] = json!([3]);
    base.push(pass(1));
    base.push(pass(0));
    base.push(
        json!({"type": "round_end", "rest": [{"player": 0, "beds": ["start_explorer", "start_quill", "cave_cat_1"]}]}),
    );
    base.push(pass(1));
    let ok = [
        base.clone(),
        vec![turn(
            0,
            json!({"do": "labor", "villagers": ["cave_cat_1"], "cat_rolls": [{"villager": "cave_cat_1", "die": 4}]}),
        )],
    ]
    .concat();
    assert_eq!(player(&state(&log(2, ok)), 0)["coins"], 7 + 4 + 1);
    let missing = [base.clone(), vec![labor(0, &["cave_cat_1"])]].concat();
    assert_error(&log(2, missing), Some(5), "E_CAT_ROLL");
    let low = [
        base.clone(),
        vec![turn(
            0,
            json!({"do": "labor", "villagers": ["cave_cat_1"], "cat_rolls": [{"villager": "cave_cat_1", "die": 2}]}),
        )],
    ]
    .concat();
    assert_error(&log(2, low), Some(5), "E_CAT_ROLL");
    let failed =
        [base.clone(), vec![json!({"type": "turn", "player": 0, "cat_fails": [{"villager": "cave_cat_1", "die": 1}]})]]
            .concat();
    let st = state(&log(2, failed));
    let cat = player(&st, 0)["villagers"].as_array().into_iter().flatten().find(|v| v["id"] == "cave_cat_1").cloned();
    assert_eq!(cat.map(|c| c["state"].clone()), Some(json!("exhausted")));
    let no_action = [base, vec![json!({"type": "turn", "player": 0})]].concat();
    assert_error(&log(2, no_action), Some(5), "E_FORMAT");
}

/// E.11: after the action no villager stays in the cave: those still there are exhausted, those
/// who made a last effort injured, a lost one gone from the village (a failure with a penalty).
#[test]
fn e11_no_villager_stays_in_the_cave() {
    let e = turn(
        0,
        json!({"do": "explore", "party": ["start_hammer", "start_quill", "start_explorer"], "cave": "cave_01", "die": 1,
               "rolls": [{"villager": "start_hammer", "die": 1}, {"villager": "start_quill", "die": 1}, {"villager": "start_explorer", "die": 1}],
               "step": {"paragraph": 1, "option": 1, "thresholds": [5], "efforts": ["start_quill"], "reached": null,
                        "outcome": [{"get": "lose_villager", "villager": "start_hammer"}]}}),
    );
    let st = state_until(&log(2, vec![e]), 1);
    assert_eq!(
        player(&st, 0)["villagers"],
        json!([{"id": "start_quill", "state": "injured"}, {"id": "start_explorer", "state": "exhausted"}])
    );
    assert_eq!(player(&st, 0)["caves"], json!([]), "a failure gives no cave");
}
