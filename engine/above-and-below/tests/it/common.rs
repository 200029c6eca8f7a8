//! Shared log builders: an explicit-mode setup with the **synthetic** component set (synthetic
//! test data, not the printed game), entries given as JSON, and replay helpers.

#![allow(dead_code)]

use chronicle_above_and_below::{replay, replay_until, AboveAndBelow, Replay};
use chronicle_game::GameEngine;
use serde_json::{json, Value};

/// The synthetic catalogue and board (labelled as synthetic in their `source`).
pub fn components() -> (Value, Value) {
    chronicle_above_and_below::synthetic::components().expect("synthetic components")
}

/// An explicit-mode setup for `n` players with the synthetic set and fixed rows.
pub fn setup(n: usize) -> Value {
    let (catalogue, board) = components();
    json!({
        "players": (0..n).map(|i| json!({"name": format!("P{i}")})).collect::<Vec<_>>(),
        "catalogue": catalogue,
        "board": board,
        "key_houses": ["key_01", "key_02", "key_03", "key_04"],
        "star_houses": ["star_01", "star_02", "star_03", "star_04", "star_05", "star_06"],
        "house_row": ["house_01", "house_02", "house_03", "house_04"],
        "outpost_row": ["outpost_01", "outpost_02", "outpost_03", "outpost_04"],
        "villager_row": ["villager_01", "villager_02", "villager_03", "villager_04", "villager_05"],
    })
}

pub fn log_with(setup: Value, entries: Vec<Value>) -> String {
    json!({"format": "above-and-below-log/1", "setup": setup, "entries": entries}).to_string()
}

pub fn log(n: usize, entries: Vec<Value>) -> String {
    log_with(setup(n), entries)
}

/// Replays a whole log.
pub fn run(log: &str) -> Replay {
    replay(log.as_bytes())
}

/// `(entry index, code)` of an invalid log; panics on a legal one.
pub fn error(log: &str) -> (Option<usize>, String) {
    let r = run(log);
    let e = r.error.unwrap_or_else(|| panic!("expected an error, got {:?}", r.status));
    (e.entry, e.code.as_str().to_owned())
}

/// Asserts the log fails at `entry` with `code`.
pub fn assert_error(log: &str, entry: Option<usize>, code: &str) {
    let r = run(log);
    let e = r.error.as_ref().unwrap_or_else(|| panic!("expected {code}, got {:?}", r.status));
    assert_eq!((e.entry, e.code.as_str()), (entry, code), "{}", e.message);
}

/// The error message of an invalid log; panics on a legal one.
pub fn message(log: &str) -> String {
    let r = run(log);
    r.error.unwrap_or_else(|| panic!("expected an error, got {:?}", r.status)).message
}

/// Asserts every entry is legal.
pub fn assert_ok(log: &str) -> Replay {
    let r = run(log);
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

/// The state view after the whole log (with end-of-log forced passes).
pub fn state(log: &str) -> Value {
    AboveAndBelow::state_view(&run(log)).expect("state").state
}

/// The state view exactly after the first `n` entries (no defaults).
pub fn state_until(log: &str, n: usize) -> Value {
    AboveAndBelow::state_view(&replay_until(log.as_bytes(), Some(n))).expect("state").state
}

pub fn turn(p: usize, action: Value) -> Value {
    json!({"type": "turn", "player": p, "action": action})
}

pub fn pass(p: usize) -> Value {
    json!({"type": "pass", "player": p})
}

pub fn labor(p: usize, v: &[&str]) -> Value {
    turn(p, json!({"do": "labor", "villagers": v}))
}

pub fn build(p: usize, card: &str, refill: Option<&str>) -> Value {
    let mut a = json!({"do": "build", "villager": "start_hammer", "card": card});
    if let Some(r) = refill {
        a["refill"] = json!(r);
    }
    turn(p, a)
}

/// An explore with two starters and one step.
pub fn explore(p: usize, cave: &str, die: u8, rolls: [u8; 2], step: Value) -> Value {
    turn(
        p,
        json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": cave, "die": die,
               "rolls": [{"villager": "start_explorer", "die": rolls[0]}, {"villager": "start_quill", "die": rolls[1]}],
               "step": step}),
    )
}

/// Passes for every player for `rounds` rounds, first player rotating from `first`.
pub fn passes(n: usize, first: usize, rounds: usize) -> Vec<Value> {
    (0..rounds).flat_map(|r| (0..n).map(move |i| pass((first + r + i) % n))).collect()
}

/// A player's field in the state view.
pub fn player(state: &Value, p: usize) -> &Value {
    &state["players"][p]
}

/// Changes one card of the synthetic catalogue (for tests of one effect).
pub fn with_card(mut setup: Value, id: &str, card: Value) -> Value {
    if let Some(cards) = setup["catalogue"]["cards"].as_array_mut() {
        for c in cards.iter_mut() {
            if c["id"] == id {
                *c = card.clone();
            }
        }
    }
    setup
}

/// Changes one villager of the synthetic catalogue.
pub fn with_villager(mut setup: Value, id: &str, v: Value) -> Value {
    if let Some(vs) = setup["catalogue"]["villagers"].as_array_mut() {
        for c in vs.iter_mut() {
            if c["id"] == id {
                *c = v.clone();
            }
        }
    }
    setup
}
