//! Shared log builders: a 2-player unseeded game on the labelled synthetic component set
//! (`chronicle-synthetic/1`, not the printed game) with the populate of `docs/log-format-village.md`'s
//! worked example, and helpers to replay and read verdicts.

#![allow(dead_code)]

use chronicle_game::GameEngine;
use chronicle_village::{Replay, Village};
use serde_json::{json, Value};

/// The synthetic component table as inline JSON.
pub fn synthetic() -> Value {
    serde_json::from_str(include_str!("../../../src/synthetic_components.json")).unwrap_or(Value::Null)
}

/// The worked example's round-1 populate (2 players).
pub fn populate1() -> Value {
    json!({ "type": "populate", "round": 1, "spaces": {
        "harvest": ["orange", "black", "green"], "family": ["pink", "brown"],
        "crafts": ["orange", "pink", "orange", "black"], "market": ["green"],
        "travel": ["brown", "pink"], "council": ["green", "green", "brown"],
        "church": ["brown", "black", "pink"] } })
}

/// A 2-player unseeded log with the given entries (after the round-1 populate when
/// `with_populate`), Alice (blue) and Bo (red).
pub fn log2(components: Value, entries: Vec<Value>) -> Value {
    json!({
        "format": "village-log/1",
        "setup": {
            "players": [ { "name": "Alice", "color": "blue" }, { "name": "Bo", "color": "red" } ],
            "customers": { "stalls": ["c04", "c09", "c15"], "queue": ["c01", "c12", "c18", "c20", "c23"] },
            "components": components
        },
        "entries": entries
    })
}

/// [`log2`] on the synthetic components, starting with the round-1 populate.
pub fn game2(mut entries: Vec<Value>) -> Value {
    entries.insert(0, populate1());
    log2(synthetic(), entries)
}

pub fn take(player: usize, space: &str, cube: &str) -> Value {
    json!({ "type": "turn", "player": player, "take": { "space": space, "cube": cube } })
}

pub fn turn(player: usize, space: &str, cube: &str, action: Value) -> Value {
    json!({ "type": "turn", "player": player, "take": { "space": space, "cube": cube }, "action": action })
}

pub fn replay(log: &Value) -> Replay {
    Village::replay(log.to_string().as_bytes())
}

/// (entry index, code) of an invalid replay; `None` when valid.
pub fn error(log: &Value) -> Option<(Option<usize>, String)> {
    replay(log).error.map(|e| (e.entry, e.code.as_str().to_owned()))
}

/// Asserts the log is invalid at `entry` with `code`.
#[track_caller]
pub fn assert_invalid(log: &Value, entry: usize, code: &str) {
    let r = replay(log);
    let got = r.error.as_ref().map(|e| (e.entry, e.code.as_str(), e.message.clone()));
    assert_eq!(got.as_ref().map(|g| (g.0, g.1)), Some((Some(entry), code)), "{got:?}");
}

/// Asserts the log has no error.
#[track_caller]
pub fn assert_valid(log: &Value) -> Replay {
    let r = replay(log);
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

/// The state view after the log.
pub fn state(log: &Value) -> Value {
    Village::state_view(&replay(log)).map(|s| s.state).unwrap_or(Value::Null)
}

/// The state view exactly after the entries (no end-of-log defaults).
pub fn state_until(log: &Value) -> Value {
    let bytes = log.to_string();
    Village::state_view(&Village::replay_until(bytes.as_bytes(), usize::MAX)).map(|s| s.state).unwrap_or(Value::Null)
}

pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// The worked example's setup and round-1 populate (its illustrative placeholder components,
/// labelled in its `source`) followed by `entries`.
pub fn example(entries: Vec<Value>) -> Value {
    let mut log = fixture("worked-example-2p-round-1.json");
    let populate = log["entries"][0].clone();
    let mut all = vec![populate];
    all.extend(entries);
    log["entries"] = Value::Array(all);
    log
}

/// The game after the log's entries, for tests that set up a position the rules rarely reach
/// by changing the state directly (each such test says what it changes).
pub fn game_at(log: &Value) -> chronicle_village::Game {
    let bytes = log.to_string();
    let r = chronicle_village::replay_until(bytes.as_bytes(), Some(usize::MAX));
    assert!(r.error.is_none(), "{:?}", r.error);
    r.game.expect("a game after a valid setup")
}

/// Plays entries on a game as a replay does; the error code of the first illegal one.
pub fn play(game: &mut chronicle_village::Game, entries: &[Value]) -> Result<(), String> {
    for e in entries {
        game.play(e).map_err(|(_, err)| err.code.as_str().to_owned())?;
    }
    chronicle_village::rules::run_automatic(game).map_err(|e| e.code.as_str().to_owned())
}

/// The state view of a game.
pub fn view(game: &chronicle_village::Game) -> Value {
    chronicle_village::view::state_json(game)
}

/// How many of a state view player's members stand at `at`.
pub fn count_at(player: &Value, at: &str) -> usize {
    player["members"].as_array().map_or(0, |m| m.iter().filter(|x| x["at"] == at).count())
}
