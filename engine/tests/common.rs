//! Shared builders for the rule tests: small logs with a fixed setup.
#![allow(dead_code)]

use chronicle_engine::{replay, ErrorCode, Replay, Status};
use serde_json::{json, Value};

/// Round cards in stage order with blacksmithing first, sheep farming second, ore mine
/// construction third (3+ players).
pub const CARDS: [&str; 12] = [
    "blacksmithing",
    "sheep_farming",
    "ore_mine_construction",
    "wish_for_children",
    "donkey_farming",
    "ruby_mine_construction",
    "family_life",
    "exploration",
    "ore_delivery",
    "adventure",
    "ore_trading",
    "ruby_delivery",
];

pub fn setup(players: usize) -> Value {
    let names: Vec<Value> = (0..players).map(|i| json!({ "name": format!("P{i}") })).collect();
    match players {
        1 => json!({ "players": names, "seed": 1 }),
        2 => {
            let cards: Vec<&str> = CARDS.iter().copied().filter(|&c| c != "exploration").collect();
            json!({ "players": names, "round_cards": cards,
                    "harvest_tokens": ["green", "red", "green", "green", "red", "red"] })
        }
        _ => json!({ "players": names, "round_cards": CARDS,
                     "harvest_tokens": ["green", "red", "green", "green", "red", "green", "red"] }),
    }
}

pub fn log(players: usize, entries: Value) -> Vec<u8> {
    json!({ "format": "caverna-log/1", "setup": setup(players), "entries": entries })
        .to_string()
        .into_bytes()
}

pub fn run(players: usize, entries: Value) -> Replay {
    replay(&log(players, entries))
}

/// Asserts the log is valid (complete or incomplete) and returns the replay.
#[track_caller]
pub fn ok(players: usize, entries: Value) -> Replay {
    let r = run(players, entries);
    assert_ne!(r.status, Status::Invalid, "unexpected error: {:?}", r.error);
    r
}

/// Asserts the log is invalid at `entry` with `code`.
#[track_caller]
pub fn rejects(players: usize, entries: Value, entry: usize, code: ErrorCode) {
    let r = run(players, entries);
    let e = r.error.unwrap_or_else(|| panic!("expected {code} at entry {entry}, got {:?}", r.status));
    assert_eq!((e.entry, e.code), (Some(entry), code), "{}", e.message);
}

pub fn place(player: usize, space: &str, actions: Value) -> Value {
    json!({ "type": "place", "player": player, "space": space, "actions": actions })
}

pub fn free(player: usize, actions: Value) -> Value {
    json!({ "type": "free", "player": player, "actions": actions })
}
