//! Game analysis on the server (docs/analysis.md, "On the server"): `analyseGame` queues an
//! analysis that the server's worker runs in the background with its progress stored; once
//! done, `Game.analysis` answers from the store in this process and in another, equal to
//! `chronicle analyse` of the same log with the same budget and seed; anonymous callers and
//! bad budgets are refused; the game page's button asks for it and shows marks and summaries
//! in a real browser.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::browser::{browser_available, Browser};
use crate::common::server::*;
use crate::common::*;

both_stores!(a_game_analysis_runs_in_the_background_and_every_process_reads_it);

/// The opening of a stored fixture game: its first six entries (placements), players named.
fn opening() -> Value {
    let mut log = log("complete_2p.json");
    let entries = log["entries"].as_array().expect("entries")[..6].to_vec();
    log["entries"] = Value::from(entries);
    if let Some(o) = log.as_object_mut() {
        o.remove("claimed");
    }
    log
}

/// Stores [`opening`] with `token`; its game id.
fn store_opening(server: &Server, token: &str) -> String {
    let q = "mutation($log: JSON!) { submitGame(log: $log) { game { id } } }";
    let submitted = server.data(Some(token), q, json!({ "log": opening() }));
    submitted["submitGame"]["game"]["id"].as_str().expect("an id").to_owned()
}

const ANALYSIS: &str = "query($id: ID!) { game(id: $id) { analysis { status budget seed engineVersion decisionsDone decisions \
    moves { entry round seat playedBest lost lostSpread mark played { words points spread winChance playouts } best { words points playouts } } \
    players { seat name decisions accuracy lostPerDecision inaccuracies mistakes blunders } } } }";

/// `Game.analysis` once it is done (waits at most two minutes: debug builds are slow).
fn finished(server: &Server, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let data = server.data(None, ANALYSIS, json!({ "id": id }));
        let a = data["game"]["analysis"].clone();
        if a["status"] == "DONE" || started.elapsed() > Duration::from_secs(120) {
            return a;
        }
        assert_ne!(a["status"], "FAILED", "{a}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

fn a_game_analysis_runs_in_the_background_and_every_process_reads_it(db: Database) {
    let server = Server::start(&db, &["--analysis-budget", "2"]);
    let token = create_token(&db, "analyst");
    let id = store_opening(&server, &token);
    // Which games are analysed is in the spec's capabilities.
    let kinds = server.data(None, "{ gameKinds { id capabilities { analysis } } }", json!({}));
    let analysed: Vec<&str> = kinds["gameKinds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|k| k["capabilities"]["analysis"] == true)
        .filter_map(|k| k["id"].as_str())
        .collect();
    assert_eq!(analysed, ["caverna"]);
    let none = server.data(None, ANALYSIS, json!({ "id": id }));
    assert_eq!(none["game"]["analysis"], Value::Null, "nothing before it is asked for");

    // Anonymous callers cannot ask through the API; a token's budget is bounded.
    let ask = "mutation($id: ID!, $budget: Int) { analyseGame(gameId: $id, budget: $budget) { status budget } }";
    let (_, code) = server.error_code(None, ask, json!({ "id": id }));
    assert_eq!(code, "UNAUTHENTICATED");
    let (_, code) = server.error_code(Some(&token), ask, json!({ "id": id, "budget": 5000 }));
    assert_eq!(code, "BAD_USER_INPUT");

    let asked = server.data(Some(&token), ask, json!({ "id": id }));
    assert_eq!(asked["analyseGame"]["budget"], 2, "the server's budget: {asked}");
    assert!(["QUEUED", "RUNNING", "DONE"].contains(&asked["analyseGame"]["status"].as_str().unwrap_or("")), "{asked}");
    let a = finished(&server, &id);
    assert_eq!(a["status"], "DONE", "{a}");
    assert_eq!((a["decisions"].as_i64(), a["decisionsDone"].as_i64()), (Some(6), Some(6)));
    let moves = a["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 6);
    for m in moves {
        assert!(m["played"]["words"].as_str().is_some_and(|w| w.contains("places a dwarf")), "{m}");
        assert_eq!(m["playedBest"].as_bool(), Some(m["played"]["words"] == m["best"]["words"]), "{m}");
        assert!(m["lost"].as_f64() >= Some(0.0) && m["played"]["playouts"] == m["best"]["playouts"], "{m}");
    }
    let decisions: i64 = a["players"].as_array().expect("players").iter().filter_map(|p| p["decisions"].as_i64()).sum();
    assert_eq!(decisions, 6);
    // Asked again: the stored analysis, not a second one.
    let again = server.data(Some(&token), ask, json!({ "id": id }));
    assert_eq!(again["analyseGame"]["status"], "DONE");

    // Another process reads the same stored analysis.
    let other = Server::start(&db, &["--analysis-budget", "2"]);
    assert_eq!(other.data(None, ANALYSIS, json!({ "id": id }))["game"]["analysis"], a);

    // The CLI, with the same log, budget and seed, judges every move alike.
    let path = std::env::temp_dir().join(format!("chronicle-analysis-{}-{}.json", std::process::id(), db.url().len()));
    std::fs::write(&path, opening().to_string()).expect("a log file");
    let out = chronicle()
        .args(["analyse", "--json", "--budget", "2", "--seed", a["seed"].as_str().unwrap_or("1")])
        .arg(&path)
        .output()
        .expect("chronicle analyse");
    let _ = std::fs::remove_file(&path);
    let cli: Value = serde_json::from_slice(&out.stdout).expect("analysis JSON");
    let cli_moves = cli["moves"].as_array().expect("moves");
    for (m, c) in moves.iter().zip(cli_moves) {
        assert_eq!((&m["played"]["words"], &m["best"]["words"]), (&c["played"]["words"], &c["best"]["words"]));
        assert_eq!(m["lost"].as_f64(), c["lost"].as_f64());
    }
}

/// The game page asks for the analysis with a button, shows its progress, then each player's
/// summary and the decisions, in words.
#[test]
fn the_game_page_asks_for_an_analysis_and_shows_it() {
    if !browser_available() {
        return;
    }
    let db = Database::sqlite();
    let server = Server::start(&db, &["--analysis-budget", "2"]);
    let token = create_token(&db, "browser");
    let id = store_opening(&server, &token);
    let b = Browser::start();
    b.goto(&format!("{}/games/{id}", server.base));
    let button = b.find("#analysis button[type=submit]");
    assert_eq!(b.text(&button), "Analyse this game");
    b.click(&button);
    // The page looks again every few seconds until the worker is done (debug builds are slow).
    let started = Instant::now();
    while b.try_find("#analysis table.summary").is_none() {
        assert!(started.elapsed() < Duration::from_secs(120), "the analysis did not finish: {}", b.url());
        std::thread::sleep(Duration::from_millis(500));
    }
    let rows = b.find_all("#analysis table.summary tbody tr");
    assert_eq!(rows.len(), 2, "one row per player");
    let first = b.text(&rows[0]);
    assert!(first.starts_with("1 ") && first.contains('%'), "seat 1, its accuracy: {first}");
    let note = b.text(&b.find("#analysis p.note"));
    assert!(note.contains("2 playouts a decision") && note.contains("not a proof"), "{note}");
    b.script("document.querySelector('#analysis details').open = true;", json!([]));
    let decisions = b.find_all("#analysis details table.moves tbody tr");
    assert_eq!(decisions.len(), 6, "every decision is listed");
    assert!(b.text(&decisions[0]).contains("places a dwarf"));
    if let Some(dir) = std::env::var_os("CHRONICLE_SCREENSHOTS") {
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        b.screenshot(&std::path::PathBuf::from(dir).join("game-analysis.png"));
    }
}
