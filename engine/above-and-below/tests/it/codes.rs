//! Every error code of `docs/rules/above-and-below.md` G.1 and `docs/log-format-above-and-below.md` ("Error codes") is
//! reachable: one
//! smallest log per code, each failing at a stated place (`None` = the envelope or setup), and
//! the table covers `ErrorCode::ALL` exactly, so a new code cannot be added without a case.

use std::collections::BTreeSet;

use chronicle_above_and_below::ErrorCode;
use serde_json::{json, Value};

use crate::common::*;

fn setup_with(f: impl FnOnce(&mut Value)) -> Value {
    let mut s = setup(2);
    f(&mut s);
    s
}

fn explore_step(step: Value) -> Value {
    explore(0, "cave_01", 1, [4, 3], step)
}

/// P0's explore of `cave_01` (paragraph 1 by its table) with dice 4 and 3: 2 + 1 = 3 lanterns.
fn step(extra: Value) -> Value {
    let mut s = json!({"paragraph": 1, "option": 1, "thresholds": [3], "reached": 3, "outcome": []});
    if let (Some(o), Some(e)) = (s.as_object_mut(), extra.as_object()) {
        o.extend(e.clone());
    }
    s
}

fn free(p: usize, free: Value) -> Value {
    json!({"type": "turn", "player": p, "free": free, "action": {"do": "labor", "villagers": ["start_hammer"]}})
}

/// `(code, log, place of the error)`.
fn cases() -> Vec<(&'static str, String, Option<usize>)> {
    let l = |e: Vec<Value>| log(2, e);
    let seeded_one_cave = setup_with(|s| {
        s["catalogue"]["caves"] = json!([{"id": "cave_01"}]);
        s["random"] = json!("seeded");
        s["seed"] = json!(1);
        for f in ["key_houses", "house_row", "outpost_row", "villager_row"] {
            s.as_object_mut().map(|o| o.remove(f));
        }
    });
    let free_explore = |p: usize| {
        turn(
            p,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"],
                   "step": {"paragraph": 5, "option": 1, "thresholds": [], "reached": 0, "outcome": []}}),
        )
    };
    let with_key_09 = setup_with(|s| s["key_houses"] = json!(["key_01", "key_02", "key_03", "key_09"]));
    let mut declared =
        vec![pass(0), turn(1, json!({"do": "build", "villager": "start_hammer", "card": "key_09"})), pass(1)];
    declared.extend(passes(2, 1, 6));
    declared.push(json!({"type": "declare", "player": 1, "card": "key_09", "vp": 3}));
    declared.push(json!({"type": "declare", "player": 1, "card": "key_09", "vp": 3}));
    let bad_board = setup_with(|s| {
        s.as_object_mut().map(|o| o.remove("board"));
    });
    let envelope = |f: &dyn Fn(&mut Value)| {
        let mut doc = json!({"format": "above-and-below-log/1", "setup": setup(2), "entries": []});
        f(&mut doc);
        doc.to_string()
    };
    vec![
        // The envelope's codes, shared with every game.
        ("malformed_json", "{".to_owned(), None),
        ("malformed", "[]".to_owned(), None),
        ("bad_format", envelope(&|d| d["format"] = json!("above-and-below-log/2")), None),
        ("unknown_field", envelope(&|d| d["bogus"] = json!(1)), None),
        ("log_too_large", envelope(&|d| d["entries"] = json!(vec![0; 100_001])), None),
        // This game's own.
        ("E_FORMAT", envelope(&|d| d["setup"]["players"] = json!(7)), None),
        ("E_UNKNOWN_FIELD", envelope(&|d| d["setup"]["bogus"] = json!(1)), None),
        (
            "E_UNKNOWN_ID",
            l(vec![json!({"type": "pass", "player": 0, "free": [{"do": "offer", "item": "gold"}]})]),
            Some(0),
        ),
        ("E_SETUP_RANDOM", log_with(setup_with(|s| s["seed"] = json!(3)), vec![]), None),
        (
            "E_RANDOM_MISSING",
            l(vec![turn(
                0,
                json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01",
            "rolls": [{"villager": "start_explorer", "die": 4}, {"villager": "start_quill", "die": 3}], "step": step(json!({}))}),
            )]),
            Some(0),
        ),
        (
            "E_RANDOM_MISMATCH",
            log_with(
                setup_with(|s| {
                    s["random"] = json!("seeded");
                    s["seed"] = json!(1);
                    s["villager_row"] =
                        json!(["villager_01", "villager_02", "villager_03", "villager_04", "villager_05"]);
                }),
                vec![],
            ),
            None,
        ),
        ("E_SEQUENCE", l(vec![json!({"type": "round_end"})]), Some(0)),
        ("E_SETUP_PLAYERS", log(1, vec![]), None),
        ("E_SETUP_BOARD", log_with(bad_board, vec![]), None),
        ("E_CATALOGUE", log_with(setup_with(|s| s["catalogue"] = json!("ab-base-2015")), vec![]), None),
        (
            "E_SETUP_ROWS",
            log_with(setup_with(|s| s["house_row"] = json!(["house_01", "house_02", "house_03"])), vec![]),
            None,
        ),
        ("E_NOT_YOUR_TURN", l(vec![labor(1, &["start_hammer"])]), Some(0)),
        (
            "E_MUST_PASS",
            l(vec![
                labor(0, &["start_hammer", "start_quill", "start_explorer"]),
                labor(1, &["start_hammer"]),
                labor(0, &["start_hammer"]),
            ]),
            Some(2),
        ),
        ("E_PASSED", l(vec![pass(0), labor(1, &["start_hammer"]), pass(0)]), Some(2)),
        ("E_VILLAGER_NOT_READY", l(vec![labor(0, &["villager_01"])]), Some(0)),
        ("E_VILLAGER_DUPLICATE", l(vec![labor(0, &["start_hammer", "start_hammer"])]), Some(0)),
        ("E_ACTION_VILLAGERS", l(vec![labor(0, &[])]), Some(0)),
        (
            "E_HARVEST_COUNT",
            l(vec![turn(
                0,
                json!({"do": "harvest", "villagers": ["start_hammer"], "take": ["start_house", "start_house"]}),
            )]),
            Some(0),
        ),
        (
            "E_HARVEST_EMPTY",
            l(vec![turn(0, json!({"do": "harvest", "villagers": ["start_hammer"], "take": ["start_house"]}))]),
            Some(0),
        ),
        (
            "E_SKILL_REQUIRED",
            l(vec![turn(
                0,
                json!({"do": "build", "villager": "start_quill", "card": "house_01", "refill": "house_05"}),
            )]),
            Some(0),
        ),
        ("E_CARD_NOT_AVAILABLE", l(vec![build(0, "house_09", Some("house_05"))]), Some(0)),
        ("E_PAYMENT", l(vec![build(0, "star_05", None)]), Some(0)),
        (
            "E_NO_FREE_CAVE",
            l(vec![turn(
                0,
                json!({"do": "build", "villager": "start_hammer", "card": "outpost_01", "cave": "cave_01", "refill": "outpost_05"}),
            )]),
            Some(0),
        ),
        (
            "E_SLOT",
            l(vec![turn(0, json!({"do": "train", "villager": "start_quill", "slot": 0, "recruit": "villager_02"}))]),
            Some(0),
        ),
        ("E_OFFER", l(vec![json!({"type": "pass", "player": 0, "free": [{"do": "offer", "item": "fish"}]})]), Some(0)),
        ("E_BUY", l(vec![free(0, json!([{"do": "buy", "from": 1, "price": 3}]))]), Some(0)),
        (
            "E_REFRESH",
            l(vec![free(
                0,
                json!([{"do": "refresh", "row": "houses", "drawn": ["house_05", "house_06", "house_07", "house_08"]},
            {"do": "refresh", "row": "houses", "drawn": ["house_09", "house_10", "house_11", "house_12"]}]),
            )]),
            Some(0),
        ),
        ("E_STORE", l(vec![json!({"type": "store", "player": 0, "goods": ["fish"]})]), Some(0)),
        (
            "E_CAT_ROLL",
            l(vec![json!({"type": "turn", "player": 0, "cat_fails": [{"villager": "start_hammer", "die": 1}]})]),
            Some(0),
        ),
        ("E_DRAW", l(vec![build(0, "house_01", Some("house_02"))]), Some(0)),
        (
            "E_PARTY_SIZE",
            l(vec![turn(
                0,
                json!({"do": "explore", "party": ["start_explorer"], "cave": "cave_01", "die": 1,
            "rolls": [{"villager": "start_explorer", "die": 4}], "step": step(json!({}))}),
            )]),
            Some(0),
        ),
        ("E_CAVE_DECK_EMPTY", log_with(seeded_one_cave, vec![free_explore(0), free_explore(1)]), Some(1)),
        ("E_DIE", l(vec![explore(0, "cave_01", 7, [4, 3], step(json!({})))]), Some(0)),
        ("E_PARAGRAPH", l(vec![explore_step(step(json!({"paragraph": 2})))]), Some(0)),
        (
            "E_ROLLS",
            l(vec![turn(
                0,
                json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1,
            "rolls": [{"villager": "start_explorer", "die": 4}], "step": step(json!({}))}),
            )]),
            Some(0),
        ),
        (
            "E_REROLL",
            l(vec![turn(
                0,
                json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1,
            "rolls": [{"villager": "start_explorer", "die": 4}, {"villager": "start_quill", "die": 3}],
            "rerolls": [{"villager": "start_quill", "die": 6}], "step": step(json!({}))}),
            )]),
            Some(0),
        ),
        ("E_EFFORT", l(vec![explore_step(step(json!({"efforts": ["start_hammer"]})))]), Some(0)),
        (
            "E_BONUS",
            l(vec![explore_step(step(json!({"bonus": [{"kind": "if_have", "item": "ore", "n": 1}]})))]),
            Some(0),
        ),
        (
            "E_CUSTOM",
            l(vec![json!({"type": "turn", "player": 0, "custom": [{"card": "start_house", "coins": 1}],
            "action": {"do": "labor", "villagers": ["start_hammer"]}})]),
            Some(0),
        ),
        ("E_LANTERNS", l(vec![explore_step(step(json!({"thresholds": [3, 5], "reached": 5})))]), Some(0)),
        ("E_THRESHOLD", l(vec![explore_step(step(json!({"thresholds": [5, 3], "reached": 3})))]), Some(0)),
        (
            "E_OUTCOME",
            l(vec![explore_step(step(
                json!({"thresholds": [5], "reached": null, "outcome": [{"get": "coins", "n": 1}]}),
            ))]),
            Some(0),
        ),
        (
            "E_REST",
            l(vec![pass(0), pass(1), json!({"type": "round_end", "rest": [{"player": 0, "beds": ["start_hammer"]}]})]),
            Some(2),
        ),
        ("E_DECLARE", log_with(with_key_09, declared.clone()), Some(declared.len() - 1)),
    ]
}

/// Each case fails exactly where stated with its code, and the cases cover every code.
#[test]
fn g1_every_error_code_is_reachable() {
    let cases = cases();
    for (code, log, at) in &cases {
        let r = run(log);
        let e = r.error.as_ref().unwrap_or_else(|| panic!("{code}: the log is legal ({:?})", r.status));
        assert_eq!((e.code.as_str(), e.entry), (*code, *at), "{code}: {}", e.message);
    }
    let covered: BTreeSet<&str> = cases.iter().map(|(c, _, _)| *c).collect();
    let all: BTreeSet<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(covered, all);
    assert_eq!(cases.len(), all.len(), "one case per code");
}
