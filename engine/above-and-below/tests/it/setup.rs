//! Setup (`docs/rules/above-and-below.md` C, A.8, B; LOG-FORMAT "Setup", "Randomness").

use serde_json::json;

use crate::common::*;

/// C.1: 2 to 4 players.
#[test]
fn c1_player_count_is_two_to_four() {
    for n in [0usize, 1, 5] {
        let mut s = setup(2);
        s["players"] = json!((0..n).map(|i| json!({"name": format!("P{i}")})).collect::<Vec<_>>());
        assert_error(&log_with(s, vec![]), None, "E_SETUP_PLAYERS");
    }
    for n in 2..=4 {
        assert_ok(&log(n, vec![]));
    }
}

/// C.2–C.4: starting coins by seat, three starters, 4-player starters exhausted.
#[test]
fn c2_c3_c4_starting_holdings() {
    let table: [(usize, [u64; 4]); 3] = [(2, [7, 8, 0, 0]), (3, [7, 8, 8, 0]), (4, [7, 7, 7, 8])];
    for (n, coins) in table {
        let st = state_until(&log(n, vec![]), 0);
        for (seat, want) in coins.iter().enumerate().take(n) {
            let p = player(&st, seat);
            assert_eq!(p["coins"], *want, "{n}p seat {seat}");
            let states: Vec<&str> =
                p["villagers"].as_array().into_iter().flatten().filter_map(|v| v["state"].as_str()).collect();
            let want_states = if n == 4 { vec!["ready", "exhausted", "exhausted"] } else { vec!["ready"; 3] };
            assert_eq!(states, want_states);
            assert_eq!(p["reputation"], 0);
            assert_eq!(p["beds"], 3);
        }
    }
}

/// A.8: the built-in `standard` profile lacks cells, so it alone is E_SETUP_BOARD; sanity checks.
#[test]
fn a8_board_profile_must_be_complete_and_sane() {
    let cases: Vec<(serde_json::Value, &str)> = vec![
        (json!("standard"), "E_SETUP_BOARD"),
        (
            json!({"storage": {"spaces": [[1, 5], [1, 5], [2, 7]]}, "reputation": {"track": [[-2, -2], [-1, 0], [0, 0]]}, "train_costs": [2, 3, 3, 4, 5]}),
            "E_SETUP_BOARD",
        ),
        (
            json!({"storage": {"spaces": [[1, 5], [1, 5], [2, 6]]}, "reputation": {"track": [[-2, -2], [-1, 0], [0, 0]]}, "train_costs": [5, 3, 3, 4, 5]}),
            "E_SETUP_BOARD",
        ),
        (
            json!({"storage": {"spaces": [[1, 5], [1, 5], [2, 6]]}, "reputation": {"track": [[-1, -2], [0, 0]]}, "train_costs": [2, 3, 3, 4, 5]}),
            "E_SETUP_BOARD",
        ),
        (
            json!({"storage": {"spaces": [[1, 5], [1, 5], [2, 6]]}, "reputation": {"track": [[-2, -2], [-1, 0], [0, 0]]}, "train_costs": [2, 3, 3, 4, 5], "colour": 1}),
            "E_UNKNOWN_FIELD",
        ),
    ];
    for (board, code) in cases {
        let mut s = setup(2);
        s["board"] = board.clone();
        assert_error(&log_with(s, vec![]), None, code);
    }
    let mut s = setup(2);
    s["board"] = json!({"storage": {"spaces": [[1, 5], [1, 5], [2, 6]]}, "reputation": {"track": [[-2, -2], [-1, 0], [0, 0], [1, 0]]}, "train_costs": [2, 3, 3, 4, 5]});
    assert_ok(&log_with(s, vec![]));
}

/// B.1–B.7: catalogue errors.
#[test]
fn b_catalogue_must_be_well_formed() {
    let mut named = setup(2);
    named["catalogue"] = json!("ab-base-2015");
    assert_error(&log_with(named, vec![]), None, "E_CATALOGUE");
    let mut extends = setup(2);
    extends["catalogue"]["extends"] = json!("ab-base-2015");
    assert_error(&log_with(extends, vec![]), None, "E_CATALOGUE");
    let bad_hammer = with_villager(
        setup(2),
        "start_quill",
        json!({"id": "start_quill", "kind": "starting", "skills": ["hammer"], "explore": []}),
    );
    assert_error(&log_with(bad_hammer, vec![]), None, "E_CATALOGUE");
    let bad_glogo = with_villager(
        setup(2),
        "glogo",
        json!({"id": "glogo", "kind": "special", "skills": ["hammer"], "explore": []}),
    );
    assert_error(&log_with(bad_glogo, vec![]), None, "E_CATALOGUE");
    let stub_start = with_card(setup(2), "start_house", json!({"id": "start_house", "kind": "starting"}));
    assert_error(&log_with(stub_start, vec![]), None, "E_CATALOGUE");
    let mut dup = setup(2);
    if let Some(c) = dup["catalogue"]["cards"].as_array_mut() {
        c.push(json!({"id": "house_01", "kind": "basic"}));
    }
    assert_error(&log_with(dup, vec![]), None, "E_CATALOGUE");
    let unknown_effect = with_card(
        setup(2),
        "house_01",
        json!({"id": "house_01", "kind": "basic", "cost": 2, "effects": [{"effect": "fly"}]}),
    );
    assert_error(&log_with(unknown_effect, vec![]), None, "E_UNKNOWN_ID");
    let mut encounters = setup(2);
    encounters["catalogue"]["encounters"] = json!([]);
    assert_error(&log_with(encounters, vec![]), None, "E_UNKNOWN_FIELD");
    let mut undeclared = setup(2);
    undeclared["house_row"] = json!(["house_01", "house_02", "house_03", "house_99"]);
    assert_error(&log_with(undeclared, vec![]), None, "E_CATALOGUE");
}

/// C.5–C.7: the rows at setup.
#[test]
fn c5_setup_rows_have_the_right_size_and_kinds() {
    let cases = [
        ("key_houses", json!(["key_01", "key_02", "key_03"])),
        ("key_houses", json!(["key_01", "key_02", "key_03", "house_05"])),
        ("house_row", json!(["house_01", "house_01", "house_03", "house_04"])),
        ("villager_row", json!(["villager_01", "villager_02", "villager_03", "villager_04", "glogo"])),
        ("outpost_row", json!(null)),
    ];
    for (field, value) in cases {
        let mut s = setup(2);
        s[field] = value;
        assert_error(&log_with(s, vec![]), None, "E_SETUP_ROWS");
    }
    let mut no_stars = setup(2);
    no_stars.as_object_mut().map(|o| o.remove("star_houses"));
    assert_ok(&log_with(no_stars, vec![]));
}

/// LOG-FORMAT "Randomness": seed rules and seeded rows.
#[test]
fn seeded_setup_needs_a_seed_and_derives_the_rows() {
    let mut s = setup(2);
    s["random"] = json!("seeded");
    assert_error(&log_with(s.clone(), vec![]), None, "E_SETUP_RANDOM");
    let mut explicit_seed = setup(2);
    explicit_seed["seed"] = json!(5);
    assert_error(&log_with(explicit_seed, vec![]), None, "E_SETUP_RANDOM");
    s["seed"] = json!(5);
    assert_error(&log_with(s.clone(), vec![]), None, "E_RANDOM_MISMATCH");
    for f in ["key_houses", "house_row", "outpost_row", "villager_row"] {
        s.as_object_mut().map(|o| o.remove(f));
    }
    let st = state_until(&log_with(s, vec![]), 0);
    assert_eq!(st["rows"]["houses"].as_array().map(Vec::len), Some(4));
    assert_eq!(st["decks"]["houses"], 21);
    assert_eq!(st["decks"]["caves"], 25);
}

/// LOG-FORMAT "Envelope": the envelope's faults have the codes every game shares
/// (`docs/errors.md`, "Envelope codes, one set for every game"); claimed scores and repeated
/// member names inside an entry keep this game's `E_FORMAT`.
#[test]
fn envelope_faults_have_the_shared_codes_and_the_rest_keeps_e_format() {
    let cases: [(&str, &str); 9] = [
        ("{", "malformed_json"),
        ("[]", "malformed"),
        (r#"{"format": "above-and-below-log/2", "setup": {}, "entries": []}"#, "bad_format"),
        (r#"{"setup": {}, "entries": []}"#, "bad_format"),
        (r#"{"format": "above-and-below-log/1", "setup": {}, "entries": [], "x": 1}"#, "unknown_field"),
        (r#"{"format": "above-and-below-log/1", "meta": {"x": 1}, "setup": {}, "entries": []}"#, "unknown_field"),
        (r#"{"format": "above-and-below-log/1", "entries": []}"#, "malformed"),
        (r#"{"format": "above-and-below-log/1", "setup": 7, "entries": []}"#, "malformed"),
        (r#"{"format": "above-and-below-log/1", "setup": {}, "entries": {}}"#, "malformed"),
    ];
    for (text, code) in cases {
        assert_error(text, None, code);
    }
    let wrong = run(r#"{"format": "above-and-below-log/2", "setup": {}, "entries": []}"#);
    assert_eq!(
        wrong.error.map(|e| e.message),
        Some(r#"format "above-and-below-log/2" is not "above-and-below-log/1""#.to_owned())
    );
    let mut doc: serde_json::Value = serde_json::from_str(&log(2, vec![])).expect("json");
    doc["claimed"] = json!({"scores": [1, 2, 3]});
    assert_error(&doc.to_string(), None, "E_FORMAT");
    // A repeated member name (undefined in JSON) is refused: at the top level (an envelope
    // fault, `malformed`), in an entry (`E_FORMAT`).
    let top = r#"{"format": "above-and-below-log/1", "entries": [], "entries": [], "setup": {}}"#;
    assert_error(top, None, "malformed");
    let entry = log(2, vec![]).replace(r#""entries":[]"#, r#""entries":[{"type":"pass","player":0,"player":0}]"#);
    assert_error(&entry, Some(0), "E_FORMAT");
}
