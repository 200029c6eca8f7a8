//! The actions and turn order (`docs/rules/above-and-below.md` D.2, D.4 Harvest, D.5 Build, D.6 Train, D.7 Labor).

use serde_json::json;

use crate::common::*;

/// D.7: one coin per villager; the first Labor of the round takes the board cider (D.7.2).
#[test]
fn d7_labor_pays_a_coin_per_villager_and_the_first_takes_the_cider() {
    let l = log(2, vec![labor(0, &["start_hammer", "start_quill"]), labor(1, &["start_hammer"])]);
    let st = state(&l);
    assert_eq!((player(&st, 0)["coins"].as_u64(), player(&st, 0)["cider"].as_u64()), (Some(9), Some(1)));
    assert_eq!((player(&st, 1)["coins"].as_u64(), player(&st, 1)["cider"].as_u64()), (Some(9), Some(0)));
    assert_eq!(st["board_cider"], false);
}

/// D.2.5, D.4.1, D.7.1: villager checks, table-driven.
#[test]
fn d2_5_villager_checks() {
    let cases = [
        (labor(0, &[]), "E_ACTION_VILLAGERS"),
        (turn(0, json!({"do": "harvest", "villagers": [], "take": []})), "E_ACTION_VILLAGERS"),
        (labor(0, &["start_hammer", "start_hammer"]), "E_VILLAGER_DUPLICATE"),
        (labor(0, &["villager_01"]), "E_VILLAGER_NOT_READY"),
        (labor(0, &["ghost"]), "E_VILLAGER_NOT_READY"),
    ];
    for (entry, code) in cases {
        assert_error(&log(2, vec![entry]), Some(0), code);
    }
}

/// D.2.1, D.2.3, D.2.4: whose turn, must pass, passed.
#[test]
fn d2_turn_order() {
    assert_error(&log(2, vec![labor(1, &["start_hammer"])]), Some(0), "E_NOT_YOUR_TURN");
    assert_error(&log(2, vec![labor(7, &["start_hammer"])]), Some(0), "E_NOT_YOUR_TURN");
    assert_error(&log(2, vec![pass(0), labor(1, &["start_hammer"]), pass(0)]), Some(2), "E_PASSED");
    // Player 0 exhausts everyone; player 1 acts; then player 0 may not act (must pass).
    let all = ["start_hammer", "start_quill", "start_explorer"];
    assert_error(
        &log(2, vec![labor(0, &all), labor(1, &["start_hammer"]), labor(0, &["start_hammer"])]),
        Some(2),
        "E_MUST_PASS",
    );
    // ...but a forced pass may be omitted: player 1 plays twice in a row.
    assert_ok(&log(2, vec![labor(0, &all), labor(1, &["start_hammer"]), labor(1, &["start_quill"])]));
}

/// Messages name players as they read them: name and 1-based seat, never the log's 0-based
/// `player`; a `player` that names no seat is spoken of as the log's field.
#[test]
fn d2_messages_name_seats_from_1() {
    let want = "entry 0: P0 (seat 1) is to act, not P1 (seat 2) (D.2.1)";
    assert_eq!(message(&log(2, vec![labor(1, &["start_hammer"])])), want);
    let want = "entry 0: `player` 7 names no seat: this game has 2 players (seats 1–2)";
    assert_eq!(message(&log(2, vec![labor(7, &["start_hammer"])])), want);
    let want = "entry 2: P0 (seat 1) has passed this round (D.2.4)";
    assert_eq!(message(&log(2, vec![pass(0), labor(1, &["start_hammer"]), pass(0)])), want);
}

/// D.4.2: at most one token per villager, each from an own card holding one.
#[test]
fn d4_harvest_takes_tokens_from_own_cards() {
    let base = vec![build(0, "house_02", Some("house_05")), pass(1)];
    let ok =
        [base.clone(), vec![turn(0, json!({"do": "harvest", "villagers": ["start_quill"], "take": ["house_02"]}))]]
            .concat();
    assert_eq!(player(&state(&log(2, ok)), 0)["reserve"]["fruit"], 1);
    let twice = [
        base.clone(),
        vec![turn(
            0,
            json!({"do": "harvest", "villagers": ["start_quill", "start_explorer"], "take": ["house_02", "house_02"]}),
        )],
    ]
    .concat();
    assert_error(&log(2, twice), Some(2), "E_HARVEST_EMPTY");
    let many = [
        base.clone(),
        vec![turn(0, json!({"do": "harvest", "villagers": ["start_quill"], "take": ["house_02", "house_02"]}))],
    ]
    .concat();
    assert_error(&log(2, many), Some(2), "E_HARVEST_COUNT");
    let not_own =
        [base, vec![turn(0, json!({"do": "harvest", "villagers": ["start_quill"], "take": ["house_03"]}))]].concat();
    assert_error(&log(2, not_own), Some(2), "E_HARVEST_EMPTY");
}

/// D.5: build checks, table-driven.
#[test]
fn d5_build_checks() {
    let cases = [
        (
            turn(0, json!({"do": "build", "villager": "start_quill", "card": "house_01", "refill": "house_05"})),
            "E_SKILL_REQUIRED",
        ),
        (build(0, "house_07", Some("house_05")), "E_CARD_NOT_AVAILABLE"),
        (build(0, "star_05", None), "E_PAYMENT"),
        (build(0, "house_01", None), "E_RANDOM_MISSING"),
        (build(0, "house_01", Some("key_05")), "E_DRAW"),
        (build(0, "house_01", Some("house_02")), "E_DRAW"),
        (build(0, "outpost_01", Some("outpost_05")), "E_NO_FREE_CAVE"),
        (
            turn(
                0,
                json!({"do": "build", "villager": "start_hammer", "card": "house_01", "refill": "house_05", "pay": {"coins": 1, "cider": 1}}),
            ),
            "E_PAYMENT",
        ),
        (
            turn(
                0,
                json!({"do": "build", "villager": "start_hammer", "card": "house_01", "refill": "house_05", "pay": {"coins": 3}}),
            ),
            "E_PAYMENT",
        ),
        (
            turn(
                0,
                json!({"do": "build", "villager": "start_hammer", "card": "house_01", "refill": "house_05", "custom": [{"card": "start_house", "discount": 1}]}),
            ),
            "E_CUSTOM",
        ),
    ];
    for (entry, code) in cases {
        assert_error(&log(2, vec![entry.clone()]), Some(0), code);
    }
}

/// D.5.3–D.5.7: price paid, card placed, when-gained effects, row refilled.
#[test]
fn d5_build_pays_places_and_refills() {
    let st = state(&log(2, vec![build(0, "house_02", Some("house_07"))]));
    let p = player(&st, 0);
    assert_eq!(p["coins"], 4);
    assert_eq!(p["houses"][1]["tokens"], json!(["fruit"]));
    assert_eq!(st["rows"]["houses"][1], "house_07");
    assert_eq!(p["provisional_score"]["rows"]["houses_outposts"], 1);
    // A key house is not replaced (D.5.7).
    let st = state(&log(2, vec![build(0, "key_01", None)]));
    assert_eq!(st["rows"]["keys"][0], json!(null));
}

/// D.6: train checks and the recruit's arrival.
#[test]
fn d6_train() {
    let t = |slot: i64, recruit: Option<&str>| {
        let mut a = json!({"do": "train", "villager": "start_quill", "slot": slot});
        if let Some(r) = recruit {
            a["recruit"] = json!(r);
        }
        turn(0, a)
    };
    assert_error(&log(2, vec![t(5, None)]), Some(0), "E_SLOT");
    assert_error(&log(2, vec![t(0, Some("villager_02"))]), Some(0), "E_SLOT");
    assert_error(
        &log(2, vec![turn(0, json!({"do": "train", "villager": "start_hammer", "slot": 0}))]),
        Some(0),
        "E_SKILL_REQUIRED",
    );
    assert_error(&log(2, vec![t(1, None), pass(1), t(1, None)]), Some(2), "E_VILLAGER_NOT_READY");
    let st = state(&log(2, vec![t(4, Some("villager_05"))]));
    let p = player(&st, 0);
    assert_eq!(p["coins"], 2, "slot 4 costs 5");
    assert_eq!(p["villagers"][3], json!({"id": "villager_05", "state": "exhausted"}));
    assert_eq!(p["reputation"], 1, "villager_05 has good_reputation (A.4)");
    assert_eq!(st["rows"]["villagers"][4], json!(null), "D.6.4: the slot stays empty");
    // D.6.4: after player 0 trains from slot 1, the slot is empty for player 1 (E_SLOT).
    let other = turn(1, json!({"do": "train", "villager": "start_quill", "slot": 1}));
    assert_error(&log(2, vec![t(1, None), other]), Some(1), "E_SLOT");
}
