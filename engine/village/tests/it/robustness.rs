//! Bad input never panics: mutated logs (changed ids and numbers, dropped and duplicated
//! entries, garbage) give a verdict, deterministically.

use chronicle_game::GameEngine;
use chronicle_village::rng::Rng;
use chronicle_village::Village;
use serde_json::{json, Value};

use crate::common::*;

fn mutate(v: &mut Value, rng: &mut Rng) {
    match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            if let Some(k) = keys.get(rng.below(keys.len().max(1) as u64) as usize) {
                if let Some(x) = map.get_mut(k) {
                    if rng.below(3) == 0 {
                        *x = [
                            json!(-1),
                            json!(1e300),
                            json!("moon"),
                            json!(null),
                            json!(u64::MAX),
                            json!([]),
                            json!("c99"),
                        ][rng.below(7) as usize]
                            .clone();
                    } else {
                        mutate(x, rng);
                    }
                }
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.below(a.len() as u64) as usize;
            match rng.below(4) {
                0 => {
                    a.remove(i);
                }
                1 => {
                    let x = a[i].clone();
                    a.insert(i, x);
                }
                _ => mutate(&mut a[i], rng),
            }
        }
        Value::Number(_) => *v = json!(rng.below(7) as i64 - 1),
        Value::String(_) => *v = json!(["green", "market", "c01", "farm", "city:north", "x"][rng.below(6) as usize]),
        _ => {}
    }
}

/// Hundreds of mutated logs: every one gets a verdict; invalid ones name an entry or setup.
#[test]
fn mutated_logs_never_panic() {
    let bases = [
        fixture("synthetic-solo-complete.json"),
        fixture("synthetic-3p-complete.json"),
        fixture("worked-example-2p-round-1.json"),
    ];
    let mut rng = Rng::new(99);
    for round in 0..300 {
        let mut log = bases[round % bases.len()].clone();
        for _ in 0..=rng.below(3) {
            mutate(&mut log, &mut rng);
        }
        let bytes = log.to_string();
        let r = Village::replay(bytes.as_bytes());
        let v = Village::verdict(&r);
        if let Some(e) = &v.error {
            assert!(!e.code.is_empty() && !e.message.is_empty());
        }
        let _ = Village::legal_entries(&r, 5);
        let _ = Village::state_view(&r);
        let _ = Village::ledger(bytes.as_bytes());
    }
}

/// Garbage bytes and shapes.
#[test]
fn garbage_is_refused_with_codes() {
    let cases: [(&[u8], &str); 5] = [
        (b"{", "malformed_json"),
        (b"[]", "malformed"),
        (br#"{"format": "village-log/1"}"#, "bad_format"),
        (br#"{"format": "village-log/1", "setup": 3, "entries": []}"#, "bad_format"),
        (br#"{"format": "village-log/2", "setup": {}, "entries": []}"#, "bad_format"),
    ];
    for (bytes, code) in cases {
        let v = Village::verdict(&Village::replay(bytes));
        assert_eq!(v.error.map(|e| e.code), Some(code.to_owned()));
    }
}

/// The golden simulated games of every player count (bots' games, solo with Carla's die rule;
/// simulating anew costs more than the replays in a debug build), mutated at the entry
/// level (dropped, duplicated, swapped with the next, moved to the end) and at the byte level
/// (a byte changed, inserted or removed, the text cut short): every replay ends in a verdict
/// without panicking, the same verdict twice, and an invalid one names an entry that exists
/// (or the end of the log, or the setup).
#[test]
fn mutated_simulated_games_never_panic() {
    let mut rng = Rng::new(2026);
    for name in ["solo", "2p", "3p", "4p", "5p"] {
        let log = fixture(&format!("synthetic-{name}-complete.json"));
        let entries = log["entries"].as_array().cloned().unwrap_or_default();
        let n = entries.len() as u64;
        for round in 0..40 {
            let bytes = if round % 2 == 0 {
                let mut e = entries.clone();
                let i = rng.below(n) as usize;
                match rng.below(4) {
                    0 => {
                        e.remove(i);
                    }
                    1 => e.insert(i, e[i].clone()),
                    2 if i + 1 < e.len() => e.swap(i, i + 1),
                    _ => {
                        let x = e.remove(i);
                        e.push(x);
                    }
                }
                let mut m = log.clone();
                m["entries"] = Value::Array(e);
                m.to_string().into_bytes()
            } else {
                let mut b = log.to_string().into_bytes();
                let i = rng.below(b.len() as u64) as usize;
                match rng.below(4) {
                    0 => b[i] = rng.below(256) as u8,
                    1 => b.insert(i, b"{}[],:\"0-e9 x"[rng.below(13) as usize]),
                    2 => {
                        b.remove(i);
                    }
                    _ => b.truncate(i),
                }
                b
            };
            let r = Village::replay(&bytes);
            let again = Village::verdict(&Village::replay(&bytes));
            let first = Village::verdict(&r);
            assert_eq!(serde_json::to_value(&first).ok(), serde_json::to_value(&again).ok());
            if let Some(e) = &r.error {
                assert!(e.entry.is_none_or(|i| i <= entries.len() + 1), "{name} round {round}: {e:?}");
            }
        }
    }
}
