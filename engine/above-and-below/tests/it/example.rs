//! The worked example of LOG-FORMAT ("Worked example: round 1 of a two-player game") replays
//! exactly as documented: valid but incomplete, Bo to act in round 2.

use chronicle_above_and_below::{replay, AboveAndBelow, Status};
use chronicle_game::GameEngine;

#[test]
fn the_log_format_worked_example_replays_as_documented() {
    let path = format!("{}/tests/fixtures/log-format-example.json", env!("CARGO_MANIFEST_DIR"));
    let log = std::fs::read_to_string(path).expect("example");
    let r = replay(log.as_bytes());
    assert_eq!(r.status, Status::Incomplete, "{:?}", r.error);
    let s = AboveAndBelow::state_view(&r).expect("state");
    assert_eq!(s.round, 2);
    let st = s.state;
    assert_eq!(st["to_move"], 1, "round 2 starts with Bo");
    let (alice, bo) = (&st["players"][0], &st["players"][1]);
    assert_eq!(alice["coins"], 10);
    assert_eq!(bo["coins"], 13);
    assert_eq!(bo["cider"], 1);
    assert_eq!(alice["sale"], "mushroom");
    assert_eq!(alice["caves"][0]["id"], "cave_03");
    assert_eq!(alice["houses"][1]["id"], "house_05");
    assert_eq!(alice["houses"][1]["tokens"], serde_json::json!(["fish"]));
    assert_eq!(alice["beds"], 4);
    for p in [alice, bo] {
        let states: Vec<&str> =
            p["villagers"].as_array().into_iter().flatten().filter_map(|v| v["state"].as_str()).collect();
        assert!(states.iter().all(|s| *s == "ready") || p == alice);
    }
    let quill = alice["villagers"].as_array().into_iter().flatten().find(|v| v["id"] == "start_quill").expect("quill");
    assert_eq!(quill["state"], "exhausted", "injured → exhausted by a bed");
    assert_eq!(st["board_cider"], true);
    // Per-entry states of the table.
    let after0 = AboveAndBelow::state_view(&AboveAndBelow::replay_until(log.as_bytes(), 1)).expect("state").state;
    assert_eq!(after0["players"][0]["coins"], 9);
    assert_eq!(after0["players"][0]["reserve"]["mushroom"], 1);
    let after2 = AboveAndBelow::state_view(&AboveAndBelow::replay_until(log.as_bytes(), 3)).expect("state").state;
    assert_eq!(after2["players"][0]["coins"], 6);
    assert_eq!(after2["rows"]["houses"][0], "house_17");
    let after3 = AboveAndBelow::state_view(&AboveAndBelow::replay_until(log.as_bytes(), 4)).expect("state").state;
    assert_eq!(after3["players"][1]["caves"], serde_json::json!([]));
}

/// The fragment in LOG-FORMAT "explore and the step object": reached 7 would be E_LANTERNS.
#[test]
fn the_example_with_an_impossible_reached_is_e_lanterns() {
    let path = format!("{}/tests/fixtures/log-format-example.json", env!("CARGO_MANIFEST_DIR"));
    let mut log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json");
    log["entries"][0]["action"]["step"]["reached"] = 7.into();
    let r = replay(log.to_string().as_bytes());
    let e = r.error.expect("error");
    assert_eq!((e.entry, e.code.as_str()), (Some(0), "E_LANTERNS"));
}
