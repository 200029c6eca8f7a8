//! Free actions and storage (`docs/rules/above-and-below.md` D.8 offer / buy / refresh, D.9 storage track, A.5).

use serde_json::json;

use crate::common::*;

fn free(p: usize, free: serde_json::Value, action: serde_json::Value) -> serde_json::Value {
    json!({"type": "turn", "player": p, "free": free, "action": action})
}

/// D.8.1–D.8.2: offer, withdraw and buy.
#[test]
fn d8_offer_and_buy() {
    // Player 0 gets a fruit by harvest after building house_02.
    let mut e = vec![build(0, "house_02", Some("house_05")), labor(1, &["start_hammer"])];
    e.push(turn(0, json!({"do": "harvest", "villagers": ["start_quill"], "take": ["house_02"]})));
    e.push(labor(1, &["start_quill"]));
    e.push(free(0, json!([{"do": "offer", "item": "fruit"}]), json!({"do": "labor", "villagers": ["start_explorer"]})));
    let bought = [
        e.clone(),
        vec![free(
            1,
            json!([{"do": "buy", "from": 0, "price": 3}]),
            json!({"do": "labor", "villagers": ["start_explorer"]}),
        )],
    ]
    .concat();
    let st = state(&log(2, bought));
    assert_eq!(player(&st, 1)["reserve"]["fruit"], 1);
    assert_eq!(player(&st, 0)["sale"], json!(null));
    let cheap = [
        e.clone(),
        vec![free(
            1,
            json!([{"do": "buy", "from": 0, "price": 2}]),
            json!({"do": "labor", "villagers": ["start_explorer"]}),
        )],
    ]
    .concat();
    assert_error(&log(2, cheap), Some(5), "E_BUY");
    let own = [
        e.clone(),
        vec![free(
            1,
            json!([{"do": "buy", "from": 1, "price": 3}]),
            json!({"do": "labor", "villagers": ["start_explorer"]}),
        )],
    ]
    .concat();
    assert_error(&log(2, own.clone()), Some(5), "E_BUY");
    assert_eq!(message(&log(2, own)), "entry 5: P1 (seat 2) cannot buy from their own sale spot (D.8.2)");
    let nobody = [
        e.clone(),
        vec![free(
            1,
            json!([{"do": "buy", "from": 2, "price": 3}]),
            json!({"do": "labor", "villagers": ["start_explorer"]}),
        )],
    ]
    .concat();
    let want = "entry 5: `from` 2 names no seat: this game has 2 players (seats 1–2) (D.8.2)";
    assert_eq!(message(&log(2, nobody)), want);
    let nothing =
        vec![free(0, json!([{"do": "offer", "item": "fish"}]), json!({"do": "labor", "villagers": ["start_hammer"]}))];
    assert_error(&log(2, nothing), Some(0), "E_OFFER");
    let withdraw =
        vec![free(0, json!([{"do": "offer", "item": null}]), json!({"do": "labor", "villagers": ["start_hammer"]}))];
    assert_error(&log(2, withdraw), Some(0), "E_OFFER");
}

/// D.8.3, H.29: refresh once per turn, rows under the deck slot 0 first, 1 coin.
#[test]
fn d8_3_refresh() {
    let r = |drawn: &[&str]| json!({"do": "refresh", "row": "houses", "drawn": drawn});
    let ok = vec![free(
        0,
        json!([r(&["house_05", "house_06", "house_07", "house_08"])]),
        json!({"do": "labor", "villagers": ["start_hammer"]}),
    )];
    let st = state(&log(2, ok));
    assert_eq!(st["rows"]["houses"], json!(["house_05", "house_06", "house_07", "house_08"]));
    assert_eq!(player(&st, 0)["coins"], 7, "paid 1, labored 1");
    let twice = vec![free(
        0,
        json!([r(&["house_05", "house_06", "house_07", "house_08"]), {"do": "refresh", "row": "outposts", "drawn": ["outpost_05", "outpost_06", "outpost_07", "outpost_08"]}]),
        json!({"do": "labor", "villagers": ["start_hammer"]}),
    )];
    assert_error(&log(2, twice), Some(0), "E_REFRESH");
    let short = vec![free(0, json!([r(&["house_05"])]), json!({"do": "labor", "villagers": ["start_hammer"]}))];
    assert_error(&log(2, short), Some(0), "E_RANDOM_MISSING");
    let seen = vec![free(
        0,
        json!([r(&["house_01", "house_06", "house_07", "house_08"])]),
        json!({"do": "labor", "villagers": ["start_hammer"]}),
    )];
    assert_error(&log(2, seen), Some(0), "E_DRAW");
    // G.1 D.8.3 "house or outpost row only": the key and star rows are never refreshed.
    for row in ["keys", "stars", "villagers"] {
        let other = vec![free(
            0,
            json!([{"do": "refresh", "row": row, "drawn": []}]),
            json!({"do": "labor", "villagers": ["start_hammer"]}),
        )];
        assert_error(&log(2, other), Some(0), "E_REFRESH");
    }
}

/// D.9, A.5: storing fills spaces left to right, one type per space; income follows.
#[test]
fn d9_storage_and_income_level() {
    let mut s = setup(2);
    s["board"]["storage"]["spaces"] = json!([[1, 5], [1, 5], [2, 6]]);
    let mut e = vec![build(0, "house_02", Some("house_05"))];
    e.push(pass(1));
    e.push(turn(0, json!({"do": "harvest", "villagers": ["start_quill"], "take": ["house_02"]})));
    e.push(json!({"type": "store", "player": 0, "goods": ["fruit"]}));
    let st = state(&log_with(s.clone(), e.clone()));
    assert_eq!(player(&st, 0)["storage"], json!([{"good": "fruit", "n": 1}]));
    assert_eq!(player(&st, 0)["income"], 5);
    let again = [e.clone(), vec![json!({"type": "store", "player": 0, "goods": ["fruit"]})]].concat();
    assert_error(&log_with(s.clone(), again), Some(4), "E_STORE");
    let by_other = [e, vec![json!({"type": "store", "player": 1, "goods": ["fish"]})]].concat();
    assert_error(&log_with(s, by_other), Some(4), "E_STORE");
}
