//! Shared builders for the rule tests: small logs with a fixed setup.
#![allow(dead_code)]

use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::game::Game;
use chronicle_caverna::{replay, replay_until, ErrorCode, Replay, Status};
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
    json!({ "format": "caverna-log/1", "setup": setup(players), "entries": entries }).to_string().into_bytes()
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

// ---------------------------------------------------------------------------------------------
// Log builder (used by furnishings.rs and decisions.rs)
// ---------------------------------------------------------------------------------------------

/// Spaces used to pass a turn, in order of preference. None of them needs a decision and none
/// is a round card, so player 0's plans are never disturbed except where noted.
pub fn fillers(n: usize) -> Vec<&'static str> {
    let list: &[&str] = if n <= 3 {
        &[
            "sustenance",
            "wood_gathering",
            "clearing",
            "ore_mining",
            "supplies",
            "logging",
            "drift_mining",
            "excavation",
            "strip_mining",
            "forest_exploration",
        ]
    } else {
        &[
            "ruby_mining",
            "sustenance",
            "clearing",
            "ore_mining",
            "growth",
            "housework",
            "logging",
            "excavation",
            "forest_exploration",
            "drift_mining",
            "depot",
            "weekly_market",
            "drift_mining_2",
            "large_depot",
            "fence_building",
        ]
    };
    let printed = ActionSpace::printed(n);
    list.iter().copied().filter(|s| ActionSpace::from_id(s).is_some_and(|a| printed.contains(&a))).collect()
}

pub fn filler_actions(space: &str) -> Value {
    match space {
        "growth" => json!([{ "do": "gain" }]),
        "housework" => json!([{ "do": "dog" }]),
        _ => json!([]),
    }
}

/// Player 0 passes this turn on a filler space.
pub const PASS: Value = Value::Null;

/// A log under construction. Player 0 stays the starting player throughout (fillers never
/// take `starting_player`); every other player places two dwarfs per round on fillers.
#[derive(Clone)]
pub struct Script {
    pub n: usize,
    pub setup: Value,
    pub entries: Vec<Value>,
}

impl Script {
    pub fn new(n: usize) -> Script {
        Script { n, setup: setup(n), entries: Vec::new() }
    }

    /// One work phase. `mine` are player 0's turns in order: a `place` entry, an array of
    /// entries (a `place` followed by player 0's `free` entries), or [`PASS`].
    #[allow(clippy::needless_range_loop)]
    pub fn round(mut self, mine: Vec<Value>) -> Script {
        let first = |m: &Value| match m {
            Value::Array(a) => a.first().cloned().unwrap_or(Value::Null),
            v => v.clone(),
        };
        let named: Vec<String> = mine.iter().filter_map(|m| first(m)["space"].as_str().map(String::from)).collect();
        let mut free: Vec<&str> = fillers(self.n).into_iter().filter(|s| !named.iter().any(|n| n == s)).collect();
        let mut left = vec![2usize; self.n];
        left[0] = mine.len();
        let mut mine = mine.into_iter();
        while left.iter().any(|&l| l > 0) {
            for p in 0..self.n {
                if left[p] == 0 {
                    continue;
                }
                left[p] -= 1;
                let item = if p == 0 { mine.next().unwrap() } else { PASS };
                match item {
                    Value::Null => {
                        let s = free.remove(0);
                        self.entries.push(place(p, s, filler_actions(s)));
                    }
                    Value::Array(es) => self.entries.extend(es),
                    e => self.entries.push(e),
                }
            }
        }
        self
    }

    /// Rounds where everybody passes on fillers.
    pub fn quiet(mut self, rounds: usize) -> Script {
        for _ in 0..rounds {
            self = self.round(vec![PASS, PASS]);
        }
        self
    }

    pub fn then(mut self, entry: Value) -> Script {
        self.entries.push(entry);
        self
    }

    pub fn log(&self) -> Vec<u8> {
        json!({ "format": "caverna-log/1", "setup": self.setup, "entries": self.entries }).to_string().into_bytes()
    }

    pub fn replay(&self) -> Replay {
        replay(&self.log())
    }

    /// The game after the whole log (end-of-log defaults applied); the log must be valid.
    #[track_caller]
    pub fn game(&self) -> Game {
        let r = self.replay();
        assert_ne!(r.status, Status::Invalid, "unexpected error: {:?}", r.error);
        r.game.unwrap()
    }

    /// The log is invalid with `code`; returns the offending entry.
    #[track_caller]
    pub fn rejects(&self, code: ErrorCode) -> Value {
        let r = self.replay();
        let e = r.error.unwrap_or_else(|| panic!("expected {code}, got {:?}", r.status));
        assert_eq!(e.code, code, "{}", e.message);
        self.entries[e.entry.unwrap()].clone()
    }

    /// Index of player 0's last entry on `space`.
    pub fn index_of(&self, space: &str) -> usize {
        self.entries
            .iter()
            .rposition(|e| e["player"] == 0 && e["space"] == space)
            .unwrap_or_else(|| panic!("no entry of player 0 on {space}"))
    }

    /// The game exactly after the first `k` entries (no end-of-log defaults).
    #[track_caller]
    pub fn upto(&self, k: usize) -> Game {
        let r = replay_until(&self.log(), Some(k));
        assert!(r.error.is_none(), "unexpected error: {:?}", r.error);
        r.game.unwrap()
    }

    /// The game just before and just after player 0's last entry on `space`.
    pub fn around(&self, space: &str) -> (Game, Game) {
        let i = self.index_of(space);
        (self.upto(i), self.upto(i + 1))
    }
}

pub fn furnish(tile: &str, at: [i8; 2]) -> Value {
    json!({ "do": "furnish", "tile": tile, "at": at })
}

pub fn housework(tile: &str, at: [i8; 2]) -> Value {
    place(0, "housework", json!([furnish(tile, at)]))
}

pub fn twin(cells: Value, kinds: Value) -> Value {
    json!({ "do": "twin", "cells": cells, "kinds": kinds })
}
