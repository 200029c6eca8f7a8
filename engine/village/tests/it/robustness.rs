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

/// Garbage bytes and shapes: the envelope's faults have the codes every game shares (a missing
/// or misshapen `setup`, `entries` or `meta` is `malformed`), with the shared messages.
#[test]
fn garbage_is_refused_with_the_shared_envelope_codes() {
    let cases: [(&[u8], &str, &str); 8] = [
        (b"{", "malformed_json", "EOF while parsing an object at line 1 column 1"),
        (b"[]", "malformed", "a log is a JSON object"),
        (br#"{"format": "village-log/1"}"#, "malformed", "`setup` is missing"),
        (br#"{"format": "village-log/1", "setup": 3, "entries": []}"#, "malformed", "`setup` is not an object"),
        (br#"{"format": "village-log/1", "setup": {}}"#, "malformed", "`entries` is missing"),
        (
            br#"{"format": "village-log/1", "meta": 7, "setup": {}, "entries": []}"#,
            "malformed",
            "`meta` is not an object",
        ),
        (br#"{"format": "village-log/1", "setup": {}, "entries": {}}"#, "malformed", "`entries` is not an array"),
        (
            br#"{"format": "village-log/2", "setup": {}, "entries": []}"#,
            "bad_format",
            r#"format "village-log/2" is not "village-log/1""#,
        ),
    ];
    for (bytes, code, message) in cases {
        let v = Village::verdict(&Village::replay(bytes));
        let e = v.error.map(|e| (e.code, e.message, e.entry));
        assert_eq!(e, Some((code.to_owned(), message.to_owned(), None)), "{}", String::from_utf8_lossy(bytes));
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

/// The log as text with entry `i` written by `write` (the others as they are).
fn with_entry_text(log: &Value, i: usize, write: impl Fn(String) -> String) -> String {
    let entries: Vec<String> = log["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(j, e)| if j == i { write(e.to_string()) } else { e.to_string() })
        .collect();
    let mut rest = log.clone();
    rest["entries"] = json!("ENTRIES");
    rest.to_string().replace("\"ENTRIES\"", &format!("[{}]", entries.join(",")))
}

/// Entries are read straight from their text; what that reading does not judge is judged as
/// a JSON tree reads the whole log: a member repeated in an entry counts once (the last), a
/// number out of a double's range anywhere (an earlier copy of a repeated top-level member, an
/// entry past a replay's limit) makes the log `malformed_json`, and a notation error names no
/// place inside the entry's own text.
#[test]
fn typed_reading_keeps_the_tree_readers_verdicts() {
    let log = fixture("synthetic-2p-complete.json");
    let plain = log.to_string();
    let verdict = |bytes: &[u8]| serde_json::to_value(Village::verdict(&Village::replay(bytes))).ok();
    let code = |bytes: &[u8]| Village::verdict(&Village::replay(bytes)).error.map(|e| e.code);
    assert_eq!(code(plain.as_bytes()), None);
    let i = log["entries"].as_array().and_then(|e| e.iter().position(|e| e.get("player").is_some())).unwrap_or(0);

    // A repeated member inside an entry: the last one counts.
    let repeated = with_entry_text(&log, i, |e| e.replacen('{', r#"{"player":"nobody","#, 1));
    assert_ne!(repeated, plain);
    assert_eq!(verdict(repeated.as_bytes()), verdict(plain.as_bytes()));
    assert_eq!(Village::ledger(repeated.as_bytes()), Village::ledger(plain.as_bytes()));

    // An earlier copy of a repeated top-level member is still read by the tree reader.
    let shadowed = plain.replacen('{', r#"{"meta":{"id":1e999},"#, 1);
    assert_eq!(code(shadowed.as_bytes()).as_deref(), Some("malformed_json"));
    assert!(chronicle_village::parse_only(shadowed.as_bytes()).is_err());
    assert!(Village::ledger(shadowed.as_bytes()).is_empty());

    // A number out of range in the last entry: malformed_json, also for a replay that stops
    // before it and never reads it.
    let last = log["entries"].as_array().map_or(0, Vec::len) - 1;
    let out_of_range = with_entry_text(&log, last, |_| "1e999".to_owned());
    assert_eq!(code(out_of_range.as_bytes()).as_deref(), Some("malformed_json"));
    let until = Village::verdict(&Village::replay_until(out_of_range.as_bytes(), 3));
    assert_eq!(until.error.map(|e| e.code).as_deref(), Some("malformed_json"));
    assert!(Village::ledger(out_of_range.as_bytes()).is_empty());

    // An unknown field in an entry: unknown_field, with no line or column of the entry's text.
    let unknown = with_entry_text(&log, i, |e| e.replacen('{', r#"{"junk":1,"#, 1));
    let error = Village::verdict(&Village::replay(unknown.as_bytes())).error;
    assert_eq!(error.as_ref().map(|e| (e.code.as_str(), e.entry)), Some(("unknown_field", Some(i))));
    assert!(error.is_some_and(|e| !e.message.contains(" at line ")));
}
