//! The end of a round (`docs/rules/above-and-below.md` F.1–F.8) and of the game (F.2, F.9).

use serde_json::json;

use crate::common::*;

const ALL: [&str; 3] = ["start_hammer", "start_quill", "start_explorer"];

/// F.1–F.8 with defaults: cider back, rest, income 4, first player passes left.
#[test]
fn f1_round_end_with_defaults() {
    let l = log(2, vec![labor(0, &ALL), labor(1, &["start_hammer"]), pass(1)]);
    let open = state_until(&l, 3);
    assert_eq!(open["phase"], "round_end", "replay_until leaves the round end open");
    let st = state(&log(2, vec![labor(0, &ALL), labor(1, &["start_hammer"]), pass(1), pass(1)]));
    assert_eq!(st["round"], 2);
    assert_eq!(st["first_player"], 1);
    assert_eq!(st["board_cider"], true);
    assert_eq!(player(&st, 0)["coins"], 7 + 3 + 4);
    assert!(player(&st, 0)["villagers"].as_array().into_iter().flatten().all(|v| v["state"] == "ready"));
}

/// F.1: round_end only after the last pass; F.9: declare only after the game.
#[test]
fn f1_f9_entry_sequence() {
    assert_error(&log(2, vec![json!({"type": "round_end"})]), Some(0), "E_SEQUENCE");
    assert_error(
        &log(2, vec![json!({"type": "declare", "player": 0, "card": "key_01", "vp": 1})]),
        Some(0),
        "E_SEQUENCE",
    );
    let mut game = passes(2, 0, 7);
    assert_eq!(run(&log(2, game.clone())).status, chronicle_above_and_below::Status::Complete);
    game.push(pass(0));
    assert_error(&log(2, game.clone()), Some(14), "E_SEQUENCE");
    game.pop();
    game.push(json!({"type": "round_end"}));
    assert_error(&log(2, game), Some(14), "E_SEQUENCE");
}

/// F.9 with LOG-FORMAT's omitted forced passes: a `declare` is never a turn, so a player whose
/// last pass of round 7 was forced may leave it out and declare (the engine passes for them
/// first); a declaration while that player can still act stays E_SEQUENCE.
#[test]
fn f9_declare_after_an_omitted_forced_pass() {
    let s = with_card(
        setup(2),
        "house_01",
        json!({"id": "house_01", "kind": "basic", "cost": 2, "effects": [{"effect": "custom", "text": "synthetic custom effect (test only)"}]}),
    );
    let declare = json!({"type": "declare", "player": 0, "card": "house_01", "vp": 2});
    let mut e = vec![build(0, "house_01", Some("house_05")), pass(1), pass(0)];
    e.extend(passes(2, 1, 5));
    // Round 7 (player 0 first): player 0 labors with all three, player 1 passes, and player 0's
    // forced pass is left out.
    e.push(labor(0, &ALL));
    e.push(pass(1));
    let r = run(&log_with(s.clone(), [e.clone(), vec![declare.clone()]].concat()));
    assert_eq!(r.status, chronicle_above_and_below::Status::Complete, "{:?}", r.error);
    assert_eq!(r.scores.map(|s| s[0].card_vp_custom), Some(2));
    e.pop();
    assert_error(&log_with(s, [e.clone(), vec![declare]].concat()), Some(e.len()), "E_SEQUENCE");
}

/// F.2, H.3: the last pass of round 7 ends the game at once: no rest, no cider back, no income,
/// no restock (the villagers used and the cider taken in round 7 stay as they are).
#[test]
fn f2_nothing_runs_after_round_seven() {
    let mut e = passes(2, 0, 6);
    e.push(labor(0, &ALL));
    e.push(pass(1));
    let st = state(&log(2, e));
    assert_eq!(st["phase"], "game_end");
    assert_eq!(st["board_cider"], false, "the cider taken in round 7 is not replaced");
    let p = player(&st, 0);
    assert_eq!(p["coins"], 7 + 6 * 4 + 3, "six incomes and the labor, no seventh income");
    assert!(p["villagers"].as_array().into_iter().flatten().all(|v| v["state"] == "exhausted"), "no rest");
}

/// F.4: villagers drawn after the slide must be written in explicit mode.
#[test]
fn f4_villager_row_refill() {
    let t = turn(0, json!({"do": "train", "villager": "start_quill", "slot": 0}));
    let base = vec![t, pass(1), pass(0)];
    assert_error(&log(2, [base.clone(), vec![pass(1)]].concat()), Some(3), "E_RANDOM_MISSING");
    let ok = [base.clone(), vec![json!({"type": "round_end", "villagers": ["villager_06"]})]].concat();
    let st = state(&log(2, ok));
    assert_eq!(
        st["rows"]["villagers"],
        json!(["villager_02", "villager_03", "villager_04", "villager_05", "villager_06"])
    );
    let bad = [base, vec![json!({"type": "round_end", "villagers": ["villager_02"]})]].concat();
    assert_error(&log(2, bad), Some(3), "E_DRAW");
}

/// F.5: rest choices, table-driven.
#[test]
fn f5_rest_checks() {
    let base = vec![labor(0, &ALL), pass(1)];
    let cases = [
        (json!([{"player": 0, "beds": ["start_hammer", "start_quill", "start_explorer", "start_hammer"]}]), "E_REST"),
        (json!([{"player": 0, "cider": ["start_hammer", "start_quill"]}]), "E_REST"),
        (json!([{"player": 0, "potions": ["start_hammer"]}]), "E_REST"),
        (json!([{"player": 1, "beds": ["start_hammer"]}]), "E_REST"),
        (json!([{"player": 0}, {"player": 0}]), "E_REST"),
        (json!([{"player": 5}]), "E_REST"),
    ];
    for (rest, code) in cases {
        let l = log(2, [base.clone(), vec![json!({"type": "round_end", "rest": rest})]].concat());
        assert_error(&l, Some(2), code);
    }
    // The cider from the first Labor readies one villager; only 2 beds are used.
    let l = log(2, [base, vec![json!({"type": "round_end", "rest": [{"player": 0, "cider": ["start_explorer"], "beds": ["start_hammer"]}]})]].concat());
    let st = state(&l);
    let states: Vec<&str> =
        player(&st, 0)["villagers"].as_array().into_iter().flatten().filter_map(|v| v["state"].as_str()).collect();
    assert_eq!(states, vec!["ready", "exhausted", "ready"]);
    assert_eq!(player(&st, 0)["cider"], 0);
}

/// F.6–F.7: income adds card income; restock refills empty goods_refill cards only.
#[test]
fn f6_f7_income_and_restock() {
    let s = with_card(
        setup(2),
        "house_01",
        json!({"id": "house_01", "kind": "basic", "cost": 2, "effects": [{"effect": "income_coins", "n": 2}, {"effect": "income_potions", "n": 1}, {"effect": "goods_refill", "good": "ore"}]}),
    );
    let e = vec![
        build(0, "house_01", Some("house_05")),
        pass(1),
        turn(0, json!({"do": "harvest", "villagers": ["start_quill"], "take": ["house_01"]})),
        pass(0),
        pass(1),
    ];
    let st = state(&log_with(s, e));
    let p = player(&st, 0);
    assert_eq!(p["coins"], 7 - 2 + 4 + 2);
    assert_eq!(p["potions"], 1);
    assert_eq!(p["houses"][1]["tokens"], json!(["ore"]));
    assert_eq!(p["reserve"]["ore"], 1);
}
