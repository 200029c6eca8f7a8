//! Simulated games of every player count replay complete; legal entries apply; mutated logs
//! never panic.

use chronicle_above_and_below::{replay, AboveAndBelow, Status};
use chronicle_game::GameEngine;
use serde_json::Value;

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
