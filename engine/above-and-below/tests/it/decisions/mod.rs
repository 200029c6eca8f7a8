//! One test per decision of `docs/rules/above-and-below.md` H, named `hNN_…`, its doc comment quoting the decision
//! (where a decision is structural, the test shows its observable effect). `h01_h17` holds
//! H.1–H.17, `h18_h35` H.18–H.35, `h36_h39` H.36–H.39 and G.5's trust counts; this module the
//! shared builders.

mod h01_h17;
mod h18_h35;
mod h36_h39;

use serde_json::{json, Value};

use crate::common::*;

pub(super) const ALL: [&str; 3] = ["start_hammer", "start_quill", "start_explorer"];

pub(super) fn card(id: &str, cost: u32, effects: Value) -> Value {
    json!({"id": id, "kind": "basic", "cost": cost, "effects": effects})
}

pub(super) fn harvest(p: usize, v: &[&str], take: &[&str]) -> Value {
    turn(p, json!({"do": "harvest", "villagers": v, "take": take}))
}

/// The same setup in seeded mode (rows derived from the seed, so they are removed).
pub(super) fn seeded(mut s: Value, seed: u64) -> Value {
    s["random"] = json!("seeded");
    s["seed"] = json!(seed);
    for f in ["key_houses", "house_row", "outpost_row", "villager_row"] {
        s.as_object_mut().map(|o| o.remove(f));
    }
    s
}

pub(super) fn step(thresholds: Value, reached: Value, outcome: Value) -> Value {
    json!({"paragraph": 1, "option": 1, "thresholds": thresholds, "reached": reached, "outcome": outcome})
}
