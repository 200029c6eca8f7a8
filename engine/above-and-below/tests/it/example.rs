//! The worked example of LOG-FORMAT ("Worked example: round 1 of a two-player game",
//! `tests/fixtures/log-format-example.json`, the document's JSON verbatim) replays exactly as
//! the document's table says, entry by entry: the state after each entry is compared field by
//! field with the table's "state after" column. The document's remarks around it (the `explore`
//! fragment's total, the memory of H.33, storing the mushroom) are tested on edited copies.

use chronicle_above_and_below::{replay, AboveAndBelow, Status};
use chronicle_game::GameEngine;
use serde_json::{json, Value};

fn example() -> Value {
    let path = format!("{}/tests/fixtures/log-format-example.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// The state view exactly after the first `n` entries.
fn after(doc: &Value, n: usize) -> Value {
    AboveAndBelow::state_view(&AboveAndBelow::replay_until(doc.to_string().as_bytes(), n)).expect("state").state
}

fn states(p: &Value) -> Vec<(String, String)> {
    p["villagers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| (v["id"].as_str().unwrap_or("").to_owned(), v["state"].as_str().unwrap_or("").to_owned()))
        .collect()
}

fn villagers(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

/// The table's rows 0–6, each against the state right after that entry.
#[test]
fn the_log_format_worked_example_replays_as_documented() {
    let doc = example();
    // 0: Alice explores: 3 lanterns + 1 effort = 4 → 9 coins, 1 mushroom, cave_03 (empty);
    // explorer exhausted, quill injured.
    let s = after(&doc, 1);
    let alice = &s["players"][0];
    assert_eq!(alice["coins"], 9);
    assert_eq!(alice["reserve"]["mushroom"], 1);
    assert_eq!(alice["caves"], json!([{"id": "cave_03", "outpost": null}]));
    assert_eq!(
        states(alice),
        villagers(&[("start_hammer", "ready"), ("start_quill", "injured"), ("start_explorer", "exhausted")])
    );
    assert_eq!(s["to_move"], 1);
    // 1: Bo labors with 1: 9 coins and the board cider (the round's first Labor).
    let s = after(&doc, 2);
    assert_eq!((s["players"][1]["coins"].as_u64(), s["players"][1]["cider"].as_u64()), (Some(9), Some(1)));
    assert_eq!(s["board_cider"], false);
    // 2: Alice builds house_05 (3): 6 coins; a fish on it (goods_refill); house_17 refills the
    // row; no ready villager left.
    let s = after(&doc, 3);
    let alice = &s["players"][0];
    assert_eq!(alice["coins"], 6);
    assert_eq!(alice["houses"][1], json!({"id": "house_05", "kind": "basic", "tokens": ["fish"]}));
    assert_eq!(s["rows"]["houses"], json!(["house_17", "house_12", "house_20", "house_23"]));
    assert!(states(alice).iter().all(|(_, st)| st != "ready"));
    // 3: Bo explores and fails (2 < 3): cave_11 under the cave deck, not owned; both exhausted.
    let s = after(&doc, 4);
    let bo = &s["players"][1];
    assert_eq!(bo["caves"], json!([]));
    assert_eq!(s["decks"]["caves"], 24, "25 caves (H.1), cave_03 taken, cave_11 back under the deck");
    assert_eq!(
        states(bo),
        villagers(&[("start_hammer", "exhausted"), ("start_quill", "exhausted"), ("start_explorer", "exhausted")])
    );
    // 4: Alice's forced pass, written to offer the mushroom.
    let s = after(&doc, 5);
    assert_eq!(s["players"][0]["sale"], "mushroom");
    assert_eq!(s["players"][0]["reserve"]["mushroom"], 0);
    assert_eq!(s["passed"], json!([true, false]));
    // 5: Bo's forced pass: every player has passed; the end of round waits for its entry.
    let s = after(&doc, 6);
    assert_eq!(s["phase"], "round_end");
    // 6: round end: round 2, cider back, no draws, rests, income 4 each, fish still on
    // house_05, Bo first.
    let r = replay(doc.to_string().as_bytes());
    assert_eq!(r.status, Status::Incomplete, "{:?}", r.error);
    let view = AboveAndBelow::state_view(&r).expect("state");
    assert_eq!((view.round, view.phase.as_str()), (2, "actions"));
    let s = view.state;
    assert_eq!(s["board_cider"], true);
    assert_eq!(
        s["rows"]["villagers"],
        json!(["villager_04", "villager_09", "villager_11", "villager_15", "villager_17"])
    );
    let (alice, bo) = (&s["players"][0], &s["players"][1]);
    assert_eq!(alice["beds"], 4, "3 of start_house + 1 of house_05");
    assert_eq!(
        states(alice),
        villagers(&[("start_hammer", "ready"), ("start_quill", "exhausted"), ("start_explorer", "ready")])
    );
    assert_eq!(
        states(bo),
        villagers(&[("start_hammer", "ready"), ("start_quill", "ready"), ("start_explorer", "ready")])
    );
    assert_eq!((alice["coins"].as_u64(), bo["coins"].as_u64()), (Some(10), Some(13)));
    assert_eq!(bo["cider"], 1);
    assert_eq!(alice["houses"][1]["tokens"], json!(["fish"]));
    assert_eq!((s["first_player"].as_u64(), s["to_move"].as_u64()), (Some(1), Some(1)), "round 2 starts with Bo");
    assert!(r.scores.is_none() && r.warnings.is_empty());
}

/// "explore and the step object": with the example's catalogue the fragment totals 4 (explorer
/// 5 → 2, the quill's reroll to 6 → 1, `per_skill quill` +1); `reached` 7 would be E_LANTERNS;
/// the reroll needs a `rerolls` effect among the player's cards.
#[test]
fn the_explore_fragment_totals_four() {
    let fragment = json!({ "do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_03", "die": 4,
        "rolls": [ { "villager": "start_explorer", "die": 5 }, { "villager": "start_quill", "die": 2 } ],
        "rerolls": [ { "villager": "start_quill", "die": 6 } ],
        "step": { "paragraph": 12, "option": 2, "thresholds": [4, 7],
                  "bonus": [ { "kind": "per_skill", "skill": "quill", "n": 1 } ],
                  "efforts": [], "reached": 4,
                  "outcome": [ { "get": "coins", "n": 2 }, { "get": "reputation", "n": 1 } ] } });
    let with = |rerolls: bool, reached: i64| {
        let mut doc = example();
        doc["entries"][0]["action"] = fragment.clone();
        doc["entries"][0]["action"]["step"]["reached"] = json!(reached);
        if rerolls {
            doc["setup"]["catalogue"]["cards"][0]["effects"] =
                json!([{"effect": "beds", "n": 3}, {"effect": "rerolls", "n": 1}]);
        }
        replay_until_error(&doc, 1)
    };
    assert_eq!(with(true, 4), None);
    assert_eq!(with(true, 7), Some((0, "E_LANTERNS".to_owned())));
    assert_eq!(with(false, 4), Some((0, "E_REROLL".to_owned())));
}

fn replay_until_error(doc: &Value, n: usize) -> Option<(usize, String)> {
    let r = AboveAndBelow::replay_until(doc.to_string().as_bytes(), n);
    r.error.map(|e| (e.entry.unwrap_or(usize::MAX), e.code.as_str().to_owned()))
}

/// Row 0 "remembers paragraph 12 option 2 → [4, 7] for later explorations" (H.33): Bo's round-2
/// exploration of paragraph 12 option 2 must carry [4, 7]. A cave is added to the catalogue so
/// that Bo has one to draw.
#[test]
fn the_example_remembers_its_thresholds() {
    let bo = |thresholds: Value| {
        let mut doc = example();
        doc["setup"]["catalogue"]["caves"].as_array_mut().expect("caves").push(json!({"id": "cave_20"}));
        doc["entries"].as_array_mut().expect("entries").push(json!({"type": "turn", "player": 1,
            "action": {"do": "explore", "party": ["start_hammer", "start_explorer"], "cave": "cave_20", "die": 2,
                "rolls": [{"villager": "start_hammer", "die": 1}, {"villager": "start_explorer", "die": 1}],
                "step": {"paragraph": 12, "option": 2, "thresholds": thresholds, "reached": null, "outcome": []}}}));
        replay_until_error(&doc, 8)
    };
    assert_eq!(bo(json!([4, 7])), None);
    assert_eq!(bo(json!([4, 6])), Some((7, "E_THRESHOLD".to_owned())));
}

/// The closing remark: had Alice stored the mushroom in entry 4, her income would have been the
/// first space's level (5 on the example board) instead of 4.
#[test]
fn storing_the_mushroom_raises_alices_income() {
    let mut doc = example();
    doc["entries"][4]["free"] = json!([{"do": "store", "goods": ["mushroom"]}]);
    let s = AboveAndBelow::state_view(&replay(doc.to_string().as_bytes())).expect("state").state;
    assert_eq!(s["players"][0]["coins"], 6 + 5);
    assert_eq!(s["players"][0]["storage"], json!([{"good": "mushroom", "n": 1}]));
}

/// Row 0 with `reached` 7 (above its 4 lanterns) is E_LANTERNS at entry 0, checked before the
/// threshold rule (E.8).
#[test]
fn the_example_with_an_impossible_reached_is_e_lanterns() {
    let mut log = example();
    log["entries"][0]["action"]["step"]["reached"] = 7.into();
    let r = replay(log.to_string().as_bytes());
    let e = r.error.expect("error");
    assert_eq!((e.entry, e.code.as_str()), (Some(0), "E_LANTERNS"));
}
