//! The trust report (`trust::report`): what a replay checked and what it took as declared.

use chronicle_above_and_below::{replay, trust, AboveAndBelow};
use chronicle_game::GameEngine;
use serde_json::Value;

fn golden(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sum(players: &[Value], side: &str, key: &str) -> i64 {
    players.iter().map(|p| p[side][key].as_i64().expect(key)).sum()
}

#[test]
fn a_golden_game_reports_its_declared_data_and_its_players() {
    let log = golden("golden-2p.json");
    let r = replay(&log);
    let report = trust::report(&r);
    assert_eq!(report["entries_checked"].as_u64(), Some(r.entries_applied as u64));
    let catalogue = report["declared"]["catalogue"].as_str().unwrap_or_default();
    assert!(catalogue.starts_with("synthetic test data"), "{catalogue}");
    let players = report["players"].as_array().expect("players");
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["name"], r.game.as_ref().expect("game").players()[0].name.as_str());
    assert!(report["warnings"].is_array());
}

/// The simulator explores with synthetic encounter content: each exploration is counted as
/// checked, and its rewards as trusted.
#[test]
fn a_simulated_game_counts_explorations_and_trusted_rewards() {
    let log = AboveAndBelow::simulate(3, 3).expect("simulated game").to_string().into_bytes();
    let report = trust::report(&replay(&log));
    let players = report["players"].as_array().expect("players");
    assert_eq!(players.len(), 3);
    let explorations = sum(players, "verified", "explorations");
    assert!(explorations > 0, "{report}");
    let rewards: i64 =
        ["encounter_coins", "encounter_goods", "encounter_potions", "encounter_cider", "encounter_caves"]
            .iter()
            .map(|k| sum(players, "trusted", k))
            .sum();
    assert!(rewards > 0, "encounter rewards are taken as declared: {report}");
}

#[test]
fn a_log_without_a_valid_setup_has_nothing_to_report_per_player() {
    let report = trust::report(&replay(b"{ not json"));
    assert_eq!(report["players"], serde_json::json!([]));
    assert_eq!(report["declared"], Value::Null);
    assert_eq!(report["entries_checked"], 0);
}
