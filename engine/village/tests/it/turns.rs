//! Rounds and turns (`docs/rules/village.md` C.1 – C.5, G.2, G.3).

use serde_json::json;

use crate::common::*;

/// G.2.1: the round begins with its populate; a populate elsewhere or with the wrong round is refused.
#[test]
fn g2_1_populate_placement() {
    assert_invalid(&log2(synthetic(), vec![take(0, "harvest", "green")]), 0, "expected_populate");
    let mut p = populate1();
    p["round"] = json!(2);
    assert_invalid(&log2(synthetic(), vec![p]), 0, "unexpected_populate");
    assert_invalid(&game2(vec![populate1()]), 1, "unexpected_populate");
}

/// G.2.2, G.2.3: counts per the setup card; colours from the green bag.
#[test]
fn g2_2_and_g2_3_populate_counts_and_bag() {
    let mut p = populate1();
    p["spaces"]["market"] = json!(["green", "green"]);
    assert_invalid(&log2(synthetic(), vec![p]), 0, "populate_count");
    let mut p = populate1();
    p["spaces"]["market"] = json!([]);
    assert_invalid(&log2(synthetic(), vec![p]), 0, "populate_count");
    let mut p = populate1();
    p["spaces"]["harvest"] = json!(["black", "black", "black"]);
    p["spaces"]["church"] = json!(["black", "black", "black"]);
    p["spaces"]["crafts"] = json!(["black", "black", "black", "black"]);
    assert_invalid(&log2(synthetic(), vec![p]), 0, "populate_not_in_bag");
}

/// C.2: the green bag receives the card's cubes and every plague cube; what is not drawn stays.
#[test]
fn c2_green_bag_after_populate() {
    let s = state_until(&game2(vec![]));
    assert_eq!(s["green_bag"], json!({"orange": 2, "green": 1, "brown": 1, "pink": 1, "black": 3}));
    assert_eq!(s["to_move"], json!(0));
}

/// G.3.1, C.5: turns go clockwise from the first player.
#[test]
fn g3_1_turn_order() {
    assert_invalid(&game2(vec![take(1, "harvest", "green")]), 1, "not_your_turn");
    assert_valid(&game2(vec![take(0, "harvest", "green"), take(1, "harvest", "orange")]));
}

/// Messages name a player by name and 1-based seat, never by the log's 0-based index; an
/// index that names no seat is spoken of as the log's field.
#[test]
fn messages_name_players_by_name_and_seat() {
    let message = |log: &serde_json::Value| replay(log).error.map(|e| e.message);
    let cases = [
        (game2(vec![take(1, "harvest", "green")]), "entry 1: Alice (seat 1) is to move (RULES.md G.3.1)"),
        (
            game2(vec![take(7, "harvest", "green")]),
            "entry 1: `player` 7 names no seat: this game has 2 players (seats 1–2)",
        ),
        (
            {
                let mut l = game2(vec![]);
                l["setup"]["players"][1]["start_cube"] = json!("green");
                l
            },
            "Bo (seat 2) gets no compensation cube here (RULES.md B.3, G.1.4)",
        ),
    ];
    for (log, want) in cases {
        assert_eq!(message(&log).as_deref(), Some(want));
    }
}

/// G.3.2 – G.3.5: one of take/well/free; the cube is there; the action fits; market obliges.
#[test]
fn g3_turn_shape_table() {
    let cases = [
        (json!({"type": "turn", "player": 0}), "bad_turn"),
        (
            json!({"type": "turn", "player": 0, "take": {"space": "harvest", "cube": "green"}, "well": {"color": "green"}}),
            "bad_turn",
        ),
        (take(0, "family", "green"), "cube_not_on_space"),
        (turn(0, "harvest", "green", json!({"do": "family"})), "wrong_action"),
        (take(0, "market", "green"), "market_must_be_held"),
        (json!({"type": "turn", "player": 0, "free": true}), "free_not_allowed"),
        (json!({"type": "turn", "player": 0, "well": {"color": "green"}}), "well_needs_action"),
        (json!({"type": "turn", "player": 0, "well": {"color": "green"}, "action": {"do": "harvest"}}), "cannot_pay"),
        (json!({"type": "turn", "player": 0, "well": {"color": "black"}, "action": {"do": "harvest"}}), "cannot_pay"),
        (
            json!({"type": "turn", "player": 0, "take": {"space": "harvest", "cube": "green"}, "bogus": 1}),
            "unknown_field",
        ),
        (json!({"type": "turn", "player": 0, "take": {"space": "moon", "cube": "green"}}), "unknown_id"),
        (json!({"type": "turn", "player": 7, "take": {"space": "harvest", "cube": "green"}}), "unknown_id"),
        (json!({"type": "turn", "player": -1, "take": {"space": "harvest", "cube": "green"}}), "bad_format"),
        (json!({"type": "nap", "player": 0}), "unknown_id"),
        (json!(42), "bad_format"),
    ];
    for (entry, code) in cases {
        assert_invalid(&game2(vec![entry.clone()]), 1, code);
    }
}

/// C.3: a plague cube returns to the supply and costs 2 time.
#[test]
fn c3_plague_cube_costs_two_time() {
    let s = state_until(&game2(vec![take(0, "harvest", "black")]));
    assert_eq!(s["players"][0]["time"], json!(2));
    assert_eq!(s["players"][0]["cubes"], json!({}));
    assert_eq!(s["supply"]["black"], json!(1));
}

/// C.3: an influence cube goes to the farm; the action is optional.
#[test]
fn c3_influence_cube_to_the_farm() {
    let s = state_until(&game2(vec![take(0, "travel", "brown")]));
    assert_eq!(s["players"][0]["cubes"], json!({"brown": 1}));
    assert_eq!(s["to_move"], json!(1));
}

/// G.3.6, D.8: the well pays 3 cubes of one colour (coins standing in) for any action.
#[test]
fn d8_well_with_coins() {
    let entries = vec![
        take(0, "council", "green"),
        take(1, "harvest", "green"),
        take(0, "council", "green"),
        take(1, "harvest", "orange"),
        json!({"type": "turn", "player": 0, "well": {"color": "green", "coins": 1}, "action": {"do": "harvest"}}),
    ];
    let s = state_until(&game2(entries));
    assert_eq!(s["players"][0]["coins"], json!(0));
    assert_eq!(s["players"][0]["grain"], json!(2));
    assert_eq!(s["players"][0]["cubes"], json!({}));
    assert_eq!(s["to_move"], json!(1), "the well does not remove a cube (C.5)");
}

/// C.4, C.1: the last cube ends the round; the mass is next.
#[test]
fn c4_last_cube_ends_the_round() {
    let log = fixture("worked-example-2p-round-1.json");
    let s = state_until(&log);
    assert_eq!(s["round"], json!(2));
    assert_eq!(s["phase"], json!("populate"));
    assert_eq!(s["first_player"], json!(1), "Bo took the next-first-player token (C.1 step 4)");
}
