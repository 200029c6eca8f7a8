//! `chronicle simulate --pool`: named bot players of several kinds and strengths at random
//! seats, for every game whose simulator takes a pool (docs/statistics.md, "Simulations that
//! can be analysed").

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::common::server::chronicle;
use crate::common::unique_name;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = chronicle().arg("simulate").args(args).output().expect("chronicle simulate");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn pooled(game: &str, games: &str, players: &str) -> Vec<Value> {
    let (ok, out, err) =
        run(&["--game", game, "--games", games, "--players", players, "--seed", "3", "--pool", "9", "--out", "-"]);
    assert!(ok, "{err}");
    out.lines().map(|l| serde_json::from_str(l).expect("a log per line")).collect()
}

fn names(log: &Value) -> Vec<String> {
    log["setup"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["name"].as_str().expect("a name").to_owned())
        .collect()
}

/// Every game of every game's pool seats distinct members of the pool, who say they are bots;
/// members sit at different seats over a run; the logs replay as complete and are labelled
/// simulated.
#[test]
fn a_pool_seats_named_bot_players_at_random_seats_in_every_game() {
    for game in ["caverna", "village", "above-and-below"] {
        let logs = pooled(game, "12", "3");
        assert_eq!(logs.len(), 12);
        let mut seats_of: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for log in &logs {
            let names = names(log);
            assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), 3, "{game}: distinct members {names:?}");
            assert!(names.iter().all(|n| n.contains(" bot")), "{game}: {names:?}");
            assert!(log["meta"]["source"].as_str().is_some_and(|s| s.starts_with("simulate:")), "{game}");
            for (seat, name) in names.into_iter().enumerate() {
                seats_of.entry(name).or_default().insert(seat);
            }
        }
        assert!(seats_of.len() > 3, "{game}: more members than seats play");
        assert!(seats_of.values().any(|s| s.len() > 1), "{game}: members move between seats");
        let dir = std::env::temp_dir().join(unique_name("chronicle-pool"));
        std::fs::create_dir_all(&dir).expect("a directory");
        for (i, log) in logs.iter().enumerate() {
            std::fs::write(dir.join(format!("{i}.json")), log.to_string()).expect("written");
        }
        let out = chronicle().args(["replay", "--summary"]).arg(&dir).output().expect("chronicle replay");
        let _ = std::fs::remove_dir_all(&dir);
        let summary: Value = serde_json::from_slice(&out.stdout).expect("a summary");
        assert_eq!(summary["complete"], 12, "{game}: {summary}");
    }
    // The same arguments give the same bytes.
    assert_eq!(pooled("caverna", "2", "4"), pooled("caverna", "2", "4"));
}

/// Arguments that do not fit are refused before any game is played, with the reason.
#[test]
fn a_pool_that_cannot_fill_the_table_or_a_plant_the_game_lacks_is_refused() {
    let refused = |args: &[&str], why: &str| {
        let (ok, out, err) = run(args);
        assert!(!ok && out.is_empty() && err.contains(why), "{args:?}: {err}");
    };
    let base = ["--games", "2", "--players", "3", "--seed", "1", "--out", "-"];
    let with = |more: &[&'static str]| base.iter().copied().chain(more.iter().copied()).collect::<Vec<&str>>();
    refused(&with(&["--pool", "2"]), "a pool has from --players (3)");
    refused(&with(&["--pool", "9", "--plant", "Golden goose"]), "no Caverna furnishing tile is called `Golden goose`");
    refused(&with(&["--game", "village", "--pool", "9", "--plant", "Weaving parlor"]), "Village has no tiles to plant");
    refused(&with(&["--pool", "9", "--bot", "weapons"]), "cannot be used with");
    refused(&with(&["--plant", "Weaving parlor"]), "--pool");
}
