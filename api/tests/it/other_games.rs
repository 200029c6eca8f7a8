//! Village and Above and Below through the real `chronicle serve`: `verifyLog` with the Above
//! and Below trust report, stored games with their score rows, `replay` (the state at an entry,
//! as `chronicle state` prints it), `legalEntries`, `entrySteps`, the games list filter, and the
//! game pages drawing both games' boards (and the trust report) without script. The logs are
//! the engines' fixtures, whose component data is labelled synthetic test data, not the printed
//! games'.

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(village_and_above_and_below_are_verified_stored_and_replayed);

/// The log cut after its first `n` entries: a game still in play.
fn prefix(log: &Value, n: usize) -> Value {
    let mut cut = log.clone();
    if let Some(entries) = cut["entries"].as_array_mut() {
        entries.truncate(n);
    }
    if let Some(o) = cut.as_object_mut() {
        o.remove("claimed");
    }
    cut
}

const VERDICT: &str = "game status round entriesApplied playerCount error { code } \
    players { name winner rank claimedScore score { total rows { id label points } } } claimedMismatches { player }";

fn verify(server: &Server, log: &Value) -> Value {
    let q = format!("query($log: JSON!) {{ verifyLog(log: $log) {{ {VERDICT} trust }} }}");
    server.data(None, &q, json!({ "log": log }))["verifyLog"].clone()
}

fn submit(server: &Server, token: &str, log: &Value) -> Value {
    let q = format!("mutation($log: JSON!) {{ submitGame(log: $log) {{ duplicate game {{ id {VERDICT} }} }} }}");
    server.data(Some(token), &q, json!({ "log": log }))["submitGame"]["game"].clone()
}

/// `chronicle state --json --at N` of an engine fixture.
fn cli_state(which: (&str, &str), at: usize) -> Value {
    let out = chronicle()
        .args(["state", "--json", "--at", &at.to_string()])
        .arg(engine_fixture(which))
        .output()
        .expect("chronicle state");
    serde_json::from_slice(&out.stdout).expect("state JSON")
}

fn village_and_above_and_below_are_verified_stored_and_replayed(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "uploader");
    let kinds = server.data(None, "{ gameKinds { id verified } }", json!({}));
    assert!(kinds["gameKinds"].as_array().expect("kinds").iter().all(|k| k["verified"] == true), "{kinds}");

    let village = engine_log(VILLAGE);
    let v = verify(&server, &village);
    assert_eq!((v["game"].as_str(), v["status"].as_str()), (Some("village"), Some("COMPLETE")), "{v}");
    assert_eq!(v["trust"], Value::Null, "Village's engine checks everything it applies");
    let rows = v["players"][0]["score"]["rows"].as_array().expect("score rows");
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[2]["label"], "Prestige from masses");

    let aab = engine_log(ABOVE_AND_BELOW);
    let v = verify(&server, &aab);
    assert_eq!((v["game"].as_str(), v["status"].as_str()), (Some("above-and-below"), Some("COMPLETE")), "{v}");
    assert!(v["trust"]["declared"]["catalogue"].as_str().is_some_and(|s| s.starts_with("synthetic test data")));
    assert_eq!(v["trust"]["players"].as_array().map(Vec::len), Some(2));

    for (which, log) in [(VILLAGE, &village), (ABOVE_AND_BELOW, &aab)] {
        let game = submit(&server, &token, log);
        assert_eq!(game["status"], "COMPLETE", "{game}");
        let id = game["id"].clone();
        let q =
            "query($id: ID!) { game(id: $id) { format trust } replay(gameId: $id, atEntry: 4) { round phase state } }";
        let found = server.data(None, q, json!({ "id": id }));
        assert_eq!(found["game"]["format"], log["format"]);
        assert_eq!(found["game"]["trust"].is_null(), which == VILLAGE, "{}", found["game"]);
        assert_eq!(found["replay"]["state"], cli_state(which, 4), "the API's state is the CLI's");
        let q = "query($g: String) { games(filter: { game: $g }) { edges { node { id } } } }";
        let listed = server.data(None, q, json!({ "g": which.0 }));
        assert_eq!(listed["games"]["edges"][0]["node"]["id"], id);
    }

    for (which, log) in [(VILLAGE, &village), (ABOVE_AND_BELOW, &aab)] {
        let q = "query($log: JSON!) { legalEntries(log: $log, limit: 20) }";
        let legal = server.data(None, q, json!({ "log": prefix(log, 3) }))["legalEntries"].clone();
        assert_eq!(legal["game"], which.0);
        assert!(legal["count"].as_u64().is_some_and(|n| n > 0), "{legal}");
        let q = "query($log: JSON!) { entrySteps(log: $log, draft: { player: 0 }) }";
        let (_, code) = server.error_code(None, q, json!({ "log": prefix(log, 3) }));
        assert_eq!(code, "ILLEGAL_DRAFT", "{}: entries are chosen whole from the legal entries", which.0);
    }
    let q = "query($log: JSON!) { legalEntries(log: $log) }";
    let (_, code) = server.error_code(None, q, json!({ "log": { "format": "chess-log/1" } }));
    assert_eq!(code, "BAD_USER_INPUT");
}

fn store_both(server: &Server, token: &str) -> (String, String) {
    let id = |log: &Value| submit(server, token, log)["id"].as_str().expect("game id").to_owned();
    (id(&engine_log(VILLAGE)), id(&engine_log(ABOVE_AND_BELOW)))
}

/// The game pages draw each game's state from the engine's view without script: the phase,
/// every player's panel with the provisional score by the game's rows, and for Above and Below
/// the face-up rows and the trust report.
#[test]
fn game_pages_draw_village_and_above_and_below_states() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "pages");
    let (village, aab) = store_both(&server, &token);

    let (status, page) = server.get(&format!("/games/{village}?at=10"));
    assert_eq!(status, 200);
    assert!(page.contains("class=\"state village\""), "the Village board");
    assert_eq!(page.matches("class=\"player\" data-seat=").count(), 3, "one panel per player");
    assert!(page.contains("Prestige from masses") && page.contains("Score if the game ended now"));
    assert!(page.contains("Action spaces") && page.contains("<summary>Market</summary>"));
    assert!(!page.contains("id=\"trust\""));
    let state = cli_state(VILLAGE, 10);
    assert!(page.contains(&format!("Round {}, ", state["round"])), "the round of the state at entry 10");

    let (status, page) = server.get(&format!("/games/{aab}"));
    assert_eq!(status, 200);
    assert!(page.contains("class=\"state above-and-below\""), "the Above and Below board");
    assert_eq!(page.matches("class=\"player\" data-seat=").count(), 2);
    assert!(page.contains("Key houses") && page.contains("Storage track") && page.contains("Villagers"));
    assert!(page.contains("id=\"trust\"") && page.contains("What was checked and what was trusted"));
    assert!(page.contains("synthetic test data, not the printed game"), "the declared catalogue's source");
    assert!(page.contains("Goods in the storage track"), "score rows by their labels");

    let (status, fragment) = server.get(&format!("/games/{aab}/board?at=5"));
    assert_eq!(status, 200);
    assert!(
        fragment.contains("class=\"state above-and-below\"") && fragment.contains("Entry 6 of "),
        "entries are counted from 1 on pages"
    );
}

/// In a browser: a Village log pasted on the home page is stored, its page steps through the
/// replay with the keyboard, and each player's coins and provisional score at an entry are the
/// engine's (`chronicle state`); an Above and Below game's page shows the trust report per player.
#[test]
fn browser_steps_through_a_village_game_and_reads_the_trust_report() {
    use crate::common::browser::{browser_available, Browser};
    if !browser_available() {
        return;
    }
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "browser");
    let b = Browser::start();

    b.goto(&format!("{}/", server.base));
    let text = std::fs::read_to_string(engine_fixture(VILLAGE)).expect("fixture");
    b.script("document.querySelector('#paste').value = arguments[0];", json!([text]));
    b.type_into(&b.find("#token"), &token);
    b.click(&b.find("#store"));
    let href = b.attribute(&b.find("#results li.result a"), "href").expect("a link to the stored game");
    assert!(b.text(&b.find("#results li.result")).contains("complete"));

    b.goto(&format!("{}{href}#entry-10", server.base));
    b.wait_until("entry 10", |b| b.try_find("#current-entry[data-at=\"10\"]").is_some());
    b.press("\u{E014}");
    b.wait_until("entry 11", |b| b.try_find("#current-entry[data-at=\"11\"]").is_some());
    let state = cli_state(VILLAGE, 11);
    for (seat, p) in state["players"].as_array().expect("players").iter().enumerate() {
        // A count of 0 is left out of the panel.
        let coins = b.try_find(&format!(".player[data-seat=\"{seat}\"] .good[data-good=\"coin\"]"));
        match coins {
            Some(e) => {
                let said = if p["coins"] == 1 { "1 coin".to_owned() } else { format!("{} coins", p["coins"]) };
                assert_eq!(b.text(&e), said, "seat {seat}: coins at entry 11");
            }
            None => assert_eq!(p["coins"], 0, "seat {seat} has coins at entry 11 but the page shows none"),
        }
        let total = b.text(&b.find(&format!(".player[data-seat=\"{seat}\"] .provisional-total")));
        assert_eq!(total, p["provisional_score"]["total"].to_string(), "seat {seat}: provisional score");
    }

    let (_, aab) = store_both(&server, &token);
    b.goto(&format!("{}/games/{aab}", server.base));
    let rows = b.find_all("#trust table.trust tbody tr");
    assert_eq!(rows.len(), 2, "one row per player");
    assert!(b.text(&b.find("#trust")).contains("synthetic test data, not the printed game"));
}

/// Each game page's board agrees with `chronicle state --at N` (docs/web.md "/games/ID"): at
/// sampled entries of a Village and an Above and Below game, every player's counts the page
/// shows (coins, grain, reputation, potions, cider, beds, income) are the state's, and a count
/// the page leaves out is zero in the state.
#[test]
fn game_pages_agree_with_chronicle_state_at_sampled_entries() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "uploader");
    // (fixture, [(the page's count id, the state's member of a player)])
    type Counts = &'static [(&'static str, &'static str)];
    let games: [((&str, &str), Counts); 2] = [
        (VILLAGE, &[("coin", "coins"), ("grain", "grain")]),
        (
            ABOVE_AND_BELOW,
            &[
                ("coins", "coins"),
                ("reputation", "reputation"),
                ("potions", "potions"),
                ("cider", "cider"),
                ("beds", "beds"),
                ("income", "income"),
            ],
        ),
    ];
    for (which, counts) in games {
        let mut shown_nonzero = 0;
        let log = engine_log(which);
        let game = submit(&server, &token, &log);
        let id = game["id"].as_str().expect("id").to_owned();
        let entries = log["entries"].as_array().map_or(0, Vec::len);
        for at in (0..entries).step_by(entries / 6 + 1) {
            let state = cli_state(which, at);
            let (_, page) = server.get(&format!("/games/{id}/board?at={at}"));
            let panels: Vec<&str> = page.split("class=\"player\" data-seat=").skip(1).collect();
            let players = state["players"].as_array().expect("players");
            assert_eq!(panels.len(), players.len(), "{}: one panel per player", which.0);
            for (seat, (panel, player)) in panels.iter().zip(players).enumerate() {
                for (count, member) in counts {
                    let want = player[*member].as_i64().unwrap_or(0);
                    let shown = panel
                        .split(&format!("data-good=\"{count}\">"))
                        .nth(1)
                        .and_then(|rest| rest.split(' ').next())
                        .and_then(|n| n.parse::<i64>().ok());
                    assert_eq!(shown.unwrap_or(0), want, "{} entry {at}, seat {}: {count}", which.0, seat + 1);
                    shown_nonzero += usize::from(shown.is_some_and(|n| n != 0));
                }
            }
        }
        assert!(shown_nonzero > 10, "{}: only {shown_nonzero} counts shown", which.0);
    }
}
