//! Simulated games of every player count replay complete; legal entries apply; mutated logs
//! never panic.

use chronicle_above_and_below::{replay, AboveAndBelow, Status};
use chronicle_game::GameEngine;
use serde_json::{json, Value};

#[test]
fn simulated_games_of_every_player_count_replay_complete() {
    for players in 2..=4u8 {
        for seed in 0..6u64 {
            let log = AboveAndBelow::simulate(seed, players).expect("simulate");
            let text = log.to_string();
            let r = replay(text.as_bytes());
            assert_eq!(r.status, Status::Complete, "seed {seed}, {players}p: {:?}", r.error);
            let v = AboveAndBelow::verdict(&r);
            assert_eq!(v.players.len(), usize::from(players));
            assert!(v.players.iter().any(|p| p.winner));
            for p in &v.players {
                let s = p.score.as_ref().expect("score");
                let ids: Vec<&str> = s.rows.iter().map(|r| r.id.as_str()).collect();
                let spec: Vec<&str> = chronicle_game::kind::ABOVE_AND_BELOW.score_rows.iter().map(|r| r.id).collect();
                assert_eq!(ids, spec);
            }
        }
    }
}

#[test]
fn simulation_is_deterministic() {
    assert_eq!(AboveAndBelow::simulate(9, 3).ok(), AboveAndBelow::simulate(9, 3).ok());
    assert_ne!(AboveAndBelow::simulate(9, 3).ok(), AboveAndBelow::simulate(10, 3).ok());
    assert!(AboveAndBelow::simulate(1, 5).is_err());
}

/// Every legal entry listed at every position of a simulated game applies.
#[test]
fn legal_entries_apply_and_include_the_logged_entry_kind() {
    let log = AboveAndBelow::simulate(3, 2).expect("simulate").to_string();
    let n = serde_json::from_str::<Value>(&log).expect("json")["entries"].as_array().map_or(0, Vec::len);
    for at in (0..n).step_by(7) {
        let r = AboveAndBelow::replay_until(log.as_bytes(), at);
        let legal = AboveAndBelow::legal_entries(&r, 200);
        assert!(!legal.entries.is_empty(), "no legal entry at {at}");
        for e in legal.entries.iter().take(10) {
            let mut doc: Value = serde_json::from_str(&log).expect("json");
            let entries = doc["entries"].as_array_mut().expect("entries");
            entries.truncate(at);
            entries.push(e.clone());
            let r = AboveAndBelow::replay_until(doc.to_string().as_bytes(), at + 1);
            assert!(r.error.is_none(), "legal entry {e} at {at} is refused: {:?}", r.error);
        }
    }
}

/// `replay_until` applies no end-of-log defaults; the whole replay does.
#[test]
fn replay_until_stops_exactly_after_the_entries_given() {
    let log = AboveAndBelow::simulate(4, 2).expect("simulate").to_string();
    let r0 = AboveAndBelow::replay_until(log.as_bytes(), 0);
    let state = AboveAndBelow::state_view(&r0).expect("state");
    assert_eq!(state.round, 1);
    assert_eq!(state.state["to_move"], 0);
    assert_eq!(state.state["players"][0]["coins"], 7);
    assert!(state.state["players"][0]["provisional_score"]["rows"]["storage"].is_number());
    let ledger = AboveAndBelow::ledger(log.as_bytes());
    assert!(!ledger.is_empty());
}

/// Mutated logs never panic: every entry's numbers, ids and fields are perturbed in turn.
#[test]
fn mutated_logs_never_panic() {
    let log: Value = AboveAndBelow::simulate(11, 3).expect("simulate");
    let n = log["entries"].as_array().map_or(0, Vec::len);
    let mutations: [fn(&mut Value); 6] = [
        |e| e["player"] = Value::from(99),
        |e| e["type"] = Value::from("bogus"),
        |e| {
            if let Some(o) = e.as_object_mut() {
                o.insert("extra".into(), Value::Null);
            }
        },
        |e| e["action"]["villagers"] = serde_json::json!(["nobody", "nobody"]),
        |e| e["action"]["step"]["reached"] = Value::from(u64::MAX),
        |e| e["action"]["die"] = Value::from(-4_000_000_000_i64),
    ];
    for i in (0..n).step_by(3) {
        for m in &mutations {
            let mut doc = log.clone();
            if let Some(e) = doc["entries"].get_mut(i) {
                m(e);
            }
            let text = doc.to_string();
            let r = replay(text.as_bytes());
            let _ = AboveAndBelow::verdict(&r);
            let _ = AboveAndBelow::legal_entries(&r, 20);
            let _ = AboveAndBelow::state_view(&r);
        }
    }
    for bytes in [&b"{"[..], b"[]", b"null", b"{\"format\": 3}", b"\xff\xfe"] {
        assert_eq!(replay(bytes).status, Status::Invalid);
    }
    let text = log.to_string();
    for cut in (0..text.len()).step_by(997) {
        let _ = replay(&text.as_bytes()[..cut]);
    }
}

/// Picks a node of `v` (any depth) by `pick` and applies `change` to it.
fn mutate_at(v: &mut Value, pick: &mut dyn FnMut(usize) -> usize, change: &mut dyn FnMut(&mut Value)) {
    let children = match v {
        Value::Object(o) => o.len(),
        Value::Array(a) => a.len(),
        _ => 0,
    };
    // Stop here one time in three, or at a leaf.
    if children == 0 || pick(3) == 0 {
        change(v);
        return;
    }
    let i = pick(children);
    let child = match v {
        Value::Object(o) => o.values_mut().nth(i),
        Value::Array(a) => a.get_mut(i),
        _ => None,
    };
    if let Some(c) = child {
        mutate_at(c, pick, change);
    }
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Property: random edits of simulated logs (a number made extreme, an id swapped for another
/// id of the log, a field dropped, an element duplicated, entries deleted, duplicated or
/// swapped) never panic, and every result is coherent: an invalid log names an entry of the log
/// (or the setup), every entry before it replays legal, and a valid complete log has one score
/// per seat. Deterministic (the edits come from `ab-splitmix-1` on a fixed seed).
#[test]
fn random_edits_never_panic_and_results_stay_coherent() {
    use chronicle_above_and_below::rng::SplitMix;
    let mut rng = SplitMix::new(0x5EED);
    let numbers = [
        json!(0),
        json!(-1),
        json!(7),
        json!(255),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1.5),
        json!(null),
        json!([]),
        json!({}),
    ];
    let mut invalid = 0;
    for players in 2..=4u8 {
        let log = AboveAndBelow::simulate(u64::from(players) * 101, players).expect("simulate");
        let mut ids = Vec::new();
        strings(&log["entries"], &mut ids);
        ids.sort();
        ids.dedup();
        for _ in 0..30 {
            let mut doc = log.clone();
            let entries = doc["entries"].as_array_mut().expect("entries");
            let n = entries.len();
            let i = rng.uniform(n as u64) as usize;
            match rng.uniform(6) {
                0 => {
                    entries.remove(i);
                }
                1 => {
                    let e = entries[i].clone();
                    entries.insert(i, e);
                }
                2 => entries.swap(i, rng.uniform(n as u64) as usize),
                kind => {
                    let mut r = rng.clone();
                    let mut pick = |k: usize| r.uniform(k as u64) as usize;
                    let id = ids[rng.uniform(ids.len() as u64) as usize].clone();
                    let number = numbers[rng.uniform(numbers.len() as u64) as usize].clone();
                    let mut change = |v: &mut Value| match (kind, &mut *v) {
                        (3, Value::String(_)) => *v = json!(id),
                        (3 | 4, _) => *v = number.clone(),
                        (_, Value::Object(o)) if !o.is_empty() => {
                            let k = o.keys().next().cloned().unwrap_or_default();
                            o.remove(&k);
                        }
                        (_, Value::Array(a)) if !a.is_empty() => a.push(a[0].clone()),
                        _ => *v = json!(id),
                    };
                    mutate_at(&mut entries[i], &mut pick, &mut change);
                    rng.next_u64();
                }
            }
            let len = doc["entries"].as_array().map_or(0, Vec::len);
            let text = doc.to_string();
            let r = replay(text.as_bytes());
            let _ = AboveAndBelow::verdict(&r);
            let _ = AboveAndBelow::legal_entries(&r, 5);
            let _ = AboveAndBelow::state_view(&r);
            if len % 6 == 0 {
                let _ = AboveAndBelow::ledger(text.as_bytes());
            }
            match &r.error {
                Some(e) => {
                    invalid += 1;
                    assert_eq!(r.status, Status::Invalid);
                    let at = e.entry.expect("the setup is never edited");
                    assert!(at < len && r.entries_applied == at, "{e:?}");
                    let before = AboveAndBelow::replay_until(text.as_bytes(), at);
                    assert!(before.error.is_none(), "the entries before {at} are legal: {:?}", before.error);
                }
                None if r.status == Status::Complete => {
                    assert_eq!(r.scores.as_ref().map(Vec::len), Some(usize::from(players)));
                }
                None => assert_eq!(r.status, Status::Incomplete),
            }
        }
    }
    assert!(invalid >= 30, "most random edits break a log ({invalid} of 90 did)");
}
