//! Seeded games (`docs/log-format-village.md` "Seeded games", `docs/rules/village.md` G.14) and simulated games of
//! every player count.

use chronicle_game::{GameEngine, Status};
use chronicle_village::Village;
use serde_json::json;

use crate::common::*;

/// Simulated games of every player count (solo with both Carla rules) replay complete.
#[test]
fn simulated_games_replay_complete() {
    for players in 1..=5u8 {
        for seed in 0..3u64 {
            let log = Village::simulate(seed, players).unwrap_or_default();
            let v = Village::verdict(&Village::replay(log.to_string().as_bytes()));
            assert_eq!(v.status, Status::Complete, "{players}p seed {seed}: {:?}", v.error);
            assert_eq!(v.player_count, Some(players));
            for p in &v.players {
                let rows = p.score.as_ref().map(|s| s.rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>());
                let spec: Vec<String> =
                    chronicle_game::kind::VILLAGE.score_rows.iter().map(|r| r.id.to_owned()).collect();
                assert_eq!(rows, Some(spec));
            }
            assert!(v.players.iter().any(|p| p.winner));
        }
    }
}

/// The same seed gives the same game.
#[test]
fn simulation_is_deterministic() {
    assert_eq!(Village::simulate(11, 3).ok(), Village::simulate(11, 3).ok());
    assert!(Village::simulate(1, 6).is_err());
}

/// G.14.1: a seeded log may omit its random outcomes; written ones must equal the seed's.
#[test]
fn g14_seeded_outcomes_are_derived_and_checked() {
    let log = Village::simulate(4, 2).unwrap_or_default();
    // Drop every populate and refill: the seed derives them.
    let mut short = log.clone();
    if let Some(e) = short["entries"].as_array_mut() {
        e.retain(|x| x["type"] != "populate" && x["type"] != "refill");
    }
    let v = Village::verdict(&Village::replay(short.to_string().as_bytes()));
    assert_eq!(v.status, Status::Complete, "{:?}", v.error);
    // A changed populate is a seed mismatch at its index.
    let mut bad = log.clone();
    bad["entries"][0]["spaces"]["market"] = json!(["black"]);
    bad["entries"][0]["spaces"]["harvest"] = json!([]);
    let e = replay(&bad).error.map(|e| (e.entry, e.code.as_str().to_owned()));
    assert_eq!(e, Some((Some(0), "seed_mismatch".to_owned())));
    // The display of a seeded log must equal the seed's.
    let mut bad = log;
    bad["setup"]["customers"] = json!({"stalls": ["c01", "c02", "c03"], "queue": ["c04", "c05", "c06", "c07", "c08"]});
    let e = replay(&bad).error.map(|e| (e.entry, e.code.as_str().to_owned()));
    assert!(matches!(e, Some((None, c)) if c == "seed_mismatch" || c == "bad_setup"));
}

/// replay_until never applies end-of-log defaults; replay does.
#[test]
fn replay_until_applies_no_defaults() {
    let log = Village::simulate(2, 2).unwrap_or_default();
    let mut short = log.clone();
    if let Some(e) = short["entries"].as_array_mut() {
        e.truncate(1);
    }
    let bytes = short.to_string();
    let until = Village::replay_until(bytes.as_bytes(), usize::MAX);
    assert_eq!(Village::state_view(&until).map(|s| s.phase), Some("turn".to_owned()));
    // Without entries, replay_until waits at the populate; replay derives it (seeded).
    let mut none = log;
    none["entries"] = json!([]);
    let bytes = none.to_string();
    assert_eq!(
        Village::state_view(&Village::replay_until(bytes.as_bytes(), 0)).map(|s| s.phase),
        Some("populate".to_owned())
    );
    assert_eq!(Village::state_view(&Village::replay(bytes.as_bytes())).map(|s| s.phase), Some("turn".to_owned()));
}

/// legal_entries returns entries that apply.
#[test]
fn legal_entries_apply() {
    let log = Village::simulate(5, 3).unwrap_or_default();
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    for n in [0usize, 1, 5, 20, 60] {
        let mut part = log.clone();
        part["entries"] = json!(entries[..n.min(entries.len())].to_vec());
        let bytes = part.to_string();
        let r = Village::replay_until(bytes.as_bytes(), usize::MAX);
        let legal = Village::legal_entries(&r, 50);
        assert!(!legal.entries.is_empty(), "after {n} entries");
        for e in legal.entries {
            let mut next = part.clone();
            if let Some(a) = next["entries"].as_array_mut() {
                a.push(e.clone());
            }
            let bytes = next.to_string();
            let v = Village::verdict(&Village::replay_until(bytes.as_bytes(), usize::MAX));
            assert!(v.error.is_none(), "{e}: {:?}", v.error);
        }
    }
}

/// The ledger has a line per legal entry.
#[test]
fn ledger_lines() {
    let log = fixture("worked-example-2p-round-1.json");
    let lines = Village::ledger(log.to_string().as_bytes());
    assert_eq!(lines.len(), 24);
    let plough = lines[1].changes.iter().find(|c| c.item == "plough").map(|c| (c.player, c.delta));
    assert_eq!(plough, Some((0, 1)));
}
