//! End of the game and scoring (`docs/rules/village.md` E.2 – E.4, G.3.7, G.3.8), on the golden logs.

use serde_json::json;

use crate::common::*;

/// The golden logs: complete games on the synthetic table whose per-player score rows are in
/// the sibling `.expect.json`.
#[test]
fn e3_golden_games_score_as_expected() {
    for name in [
        "synthetic-solo-complete",
        "synthetic-2p-complete",
        "synthetic-3p-complete",
        "synthetic-4p-complete",
        "synthetic-5p-complete",
    ] {
        let log = fixture(&format!("{name}.json"));
        assert!(
            log["setup"]["components"]["source"].as_str().is_some_and(|s| s.contains("synthetic")),
            "{name} is labelled"
        );
        let expect = fixture(&format!("{name}.expect.json"));
        let r = assert_valid(&log);
        assert_eq!(r.status, chronicle_village::Status::Complete, "{name}");
        let scores = r.scores.clone().unwrap_or_default();
        let rows = expect["scores"].as_array().cloned().unwrap_or_default();
        assert_eq!(scores.len(), rows.len(), "{name}");
        for (got, want) in scores.iter().zip(&rows) {
            for (id, pts) in got.rows() {
                assert_eq!(json!(pts), want[id], "{name}: row {id}");
            }
            assert_eq!(json!(got.total), want["total"], "{name}: total");
        }
        assert_eq!(json!(r.winners), expect["winners"], "{name}: winners");
        assert_eq!(json!(r.tie_break), expect["tie_break"], "{name}: what decided (E.4)");
        if let Some(rank) = expect.get("solo_rank") {
            assert_eq!(json!(r.solo_rank), *rank, "{name}: solo rank");
        }
        assert!(r.claimed_mismatches.is_empty(), "{name}: claimed totals match");
    }
}

/// G.3.8: nothing follows the final mass.
#[test]
fn g3_8_game_over() {
    let mut log = fixture("synthetic-2p-complete.json");
    if let Some(e) = log["entries"].as_array_mut() {
        e.push(take(0, "harvest", "green"));
    }
    let n = log["entries"].as_array().map_or(0, Vec::len) - 1;
    assert_invalid(&log, n, "game_over");
}

/// E.2: once the end is triggered the state says so and counts the last turns owed.
#[test]
fn e2_end_trigger_owes_last_turns() {
    let log = fixture("synthetic-2p-complete.json");
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    let mut seen = false;
    for n in 1..entries.len() {
        let mut part = log.clone();
        part["entries"] = json!(entries[..n].to_vec());
        let s = state_until(&part);
        if s["end_triggered"] == json!(true) {
            seen = true;
            assert!(s["phase"] != json!("mass"), "no round-end mass after the trigger");
            break;
        }
    }
    assert!(seen);
}

/// E.4: a claimed total that differs is reported, not invalid.
#[test]
fn claimed_scores_are_compared() {
    let mut log = fixture("synthetic-2p-complete.json");
    log["claimed"] = json!({"scores": [0, 0]});
    let r = assert_valid(&log);
    assert_eq!(r.claimed_mismatches.len(), 2);
}
