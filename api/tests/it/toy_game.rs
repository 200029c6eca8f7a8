//! A second game through every surface, with no Caverna code involved: the test-only toy game
//! (`engine/toy`, `toy-log/1`; test builds enable it with the service's `toy` feature) is
//! submitted, deduplicated, verified, scored row by row, listed, replayed and gathered into a
//! tournament by the real `chronicle serve` over GraphQL, on SQLite and on PostgreSQL. What it
//! shows: the store, the service and the API hold no game's rules; a game is its engine crate
//! and one line of the registry (`ingest/src/games.rs`).

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(
    a_second_game_is_stored_verified_scored_and_gathered_into_tournaments,
    every_known_game_has_its_engine_and_unknown_formats_are_bad_format
);

/// Runs the `chronicle` binary with `args` and `stdin`: (success, stdout, stderr).
fn run(args: &[&str], stdin: &[u8]) -> (bool, String, String) {
    use std::io::Write;
    let mut child = chronicle()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run chronicle");
    child.stdin.take().expect("stdin").write_all(stdin).expect("write stdin");
    let out = child.wait_with_output().expect("chronicle ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The toy game goes through the whole stack by its registry line alone (issue: one
/// platform): its bots play it on the command line, `replay`, `state` and `--parse-only` read
/// it, GraphQL lists it with its capabilities (none: no board, no trust report, no
/// statistics page), and its stored game has a page drawn by the game-agnostic panels.
#[test]
fn the_toy_game_goes_through_the_cli_graphql_and_its_page() {
    let (ok, log, err) =
        run(&["simulate", "--game", "toy", "--games", "1", "--players", "3", "--seed", "4", "--out", "-"], b"");
    assert!(ok, "{err}");
    let (ok, text, err) = run(&["replay", "-"], log.as_bytes());
    assert!(ok && text.starts_with("-: Toy (test-only), valid, complete: "), "{text}{err}");
    let (ok, parsed, _) = run(&["replay", "--parse-only", "--json", "-"], log.as_bytes());
    let parsed: Value = serde_json::from_str(parsed.trim()).expect("a JSON line");
    assert!(ok && parsed["status"] == "parsed", "{parsed}");
    let (ok, state, err) = run(&["state", "--json", "--at", "0", "-"], log.as_bytes());
    assert!(ok && state.contains("\"to_move\""), "{state}{err}");
    let (ok, _, err) = run(
        &[
            "simulate",
            "--game",
            "toy",
            "--bot",
            "random",
            "--games",
            "1",
            "--players",
            "2",
            "--seed",
            "1",
            "--out",
            "-",
        ],
        b"",
    );
    assert!(!ok && err.contains("Toy (test-only) games are played by its engine's own bots"), "{err}");

    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let kinds = server.data(
        None,
        "{ gameKinds { id capabilities { trustReport stepForm outcomeStats recorder boardView analysis } } }",
        json!({}),
    );
    let toy_kind =
        kinds["gameKinds"].as_array().and_then(|a| a.iter().find(|k| k["id"] == "toy").cloned()).expect("toy listed");
    assert!(toy_kind["capabilities"].as_object().is_some_and(|c| c.values().all(|v| v == false)), "{toy_kind}");

    let token = create_token(&db, "toy uploader");
    let log: Value = serde_json::from_str(log.trim()).expect("the simulated log");
    let id = submit(&server, &token, &log)["game"]["id"].as_str().expect("stored").to_owned();
    let (status, page) = server.get(&format!("/games/{id}"));
    assert_eq!(status, 200, "{page}");
    let names: Vec<String> = log["setup"]["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    assert!(names.iter().all(|n| page.contains(n.as_str())), "every player is named on the page");
    assert!(
        page.contains("Variant: plain") && !page.contains("\"doubled\""),
        "the engine's view, not the state as JSON"
    );
    let (status, _) = server.get("/stats/toy");
    assert_eq!(status, 404, "no statistics page for a game without outcome statistics");
}

const GAME_FIELDS: &str = "id game status round entriesApplied playerCount variant furnishingSet engineVersion \
    error { entry player code } players { seat name winner rank claimedScore \
    score { total rows { id label points } farmAnimalsAndDogs } } claimedMismatches { player claimed computed }";

/// A toy log: two players, three rounds, the given steps in turn order.
fn toy(variant: &str, steps: &[i64], claimed: Option<[i64; 2]>) -> Value {
    let entries: Vec<Value> = steps.iter().enumerate().map(|(i, n)| json!({ "player": i % 2, "steps": n })).collect();
    let mut log = json!({
        "format": "toy-log/1",
        "meta": { "tournament": "Toy Open" },
        "setup": { "players": ["Ada", "Bo"], "variant": variant },
        "entries": entries,
    });
    if let Some(scores) = claimed {
        log["claimed"] = json!({ "scores": scores });
    }
    log
}

fn submit(server: &Server, token: &str, log: &Value) -> Value {
    let q = format!("mutation($log: JSON!) {{ submitGame(log: $log) {{ duplicate game {{ {GAME_FIELDS} }} }} }}");
    server.data(Some(token), &q, json!({ "log": log }))["submitGame"].clone()
}

fn a_second_game_is_stored_verified_scored_and_gathered_into_tournaments(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "toy organizer");

    // Stored and scored by its own rows: Ada 3+1+1 = 5 steps, doubled: total 10.
    let first = toy("doubled", &[3, 1, 1, 2, 1, 1], Some([10, 8]));
    let r = submit(&server, &token, &first);
    assert_eq!(r["duplicate"], false);
    let game = &r["game"];
    assert_eq!((game["game"].as_str(), game["status"].as_str()), (Some("toy"), Some("COMPLETE")));
    assert_eq!((game["variant"].as_str(), game["furnishingSet"].as_str()), (Some("doubled"), None));
    assert_eq!(
        (game["round"].as_i64(), game["entriesApplied"].as_i64(), game["playerCount"].as_i64()),
        (Some(3), Some(6), Some(2))
    );
    assert_eq!(game["engineVersion"], "toy-1");
    let ada = &game["players"][0];
    assert_eq!(
        ada["score"],
        json!({ "total": 10, "farmAnimalsAndDogs": null, "rows": [
            { "id": "steps", "label": "Steps taken", "points": 5 },
            { "id": "bonus", "label": "Bonus", "points": 5 },
        ] })
    );
    assert_eq!((ada["winner"].as_bool(), ada["rank"].as_i64()), (Some(true), Some(1)));
    assert_eq!(game["claimedMismatches"], json!([]));

    // Deduplicated by its canonical form, as every game: reordered keys are the same log.
    let reordered: Value = serde_json::from_str(&serde_json::to_string_pretty(&first).expect("JSON")).expect("JSON");
    let again = submit(&server, &token, &reordered);
    assert_eq!((again["duplicate"].as_bool(), &again["game"]["id"]), (Some(true), &game["id"]));

    // Verified entry by entry: the first illegal entry, its player and the engine's code.
    let q = "query($log: JSON!) { verifyLog(log: $log) { game status error { entry player code } } }";
    let v = server.data(None, q, json!({ "log": toy("plain", &[3, 1, 4], None) }))["verifyLog"].clone();
    assert_eq!(
        v,
        json!({ "game": "toy", "status": "INVALID", "error": { "entry": 2, "player": 0, "code": "bad_steps" } })
    );

    // A second toy game whose claimed scores disagree, then a tournament of both.
    let second = submit(&server, &token, &toy("plain", &[1, 3, 1, 3, 1, 3], Some([3, 10])))["game"].clone();
    assert_eq!(second["claimedMismatches"], json!([{ "player": 1, "claimed": 10, "computed": 9 }]));
    let created = server.data(
        Some(&token),
        "mutation { createTournament(name: \"Toy Open\") { organizerToken tournament { id } } }",
        json!({}),
    )["createTournament"]
        .clone();
    let organizer = created["organizerToken"].as_str().expect("organizer token").to_owned();
    let tid = created["tournament"]["id"].clone();
    let add = "mutation($t: ID!, $g: [ID!]!) { addGamesToTournament(tournamentId: $t, gameIds: $g) { \
        standings { rank player games wins totalScore } \
        verification { games allComplete allLegal scoreMismatches { name claimed computed } } } }";
    let t = server.data(Some(&organizer), add, json!({ "t": tid, "g": [game["id"], second["id"]] }))
        ["addGamesToTournament"]
        .clone();
    // One win each; Bo has the higher total score (9 + 8 against 10 + 3).
    assert_eq!(
        t["standings"],
        json!([
            { "rank": 1, "player": "Bo", "games": 2, "wins": 1, "totalScore": 17 },
            { "rank": 2, "player": "Ada", "games": 2, "wins": 1, "totalScore": 13 },
        ])
    );
    assert_eq!(
        t["verification"],
        json!({ "games": 2, "allComplete": true, "allLegal": true,
                "scoreMismatches": [{ "name": "Bo", "claimed": 10, "computed": 9 }] })
    );

    // One game per tournament: a Caverna game is refused, and nothing is added.
    let caverna = server.data(
        Some(&token),
        "mutation($log: JSON!) { submitGame(log: $log) { game { id game } } }",
        json!({ "log": log("complete_2p.json") }),
    )["submitGame"]["game"]
        .clone();
    assert_eq!(caverna["game"], "caverna");
    let (_, code) = server.error_code(Some(&organizer), add, json!({ "t": tid, "g": [caverna["id"]] }));
    assert_eq!(code, "BAD_USER_INPUT");

    // The organizer corrects the tournament: a replacement of another game is refused, one of
    // the same game goes in; a game not in it cannot be removed; renamed; listed.
    let replace =
        "mutation($t: ID!, $g: ID!, $n: ID!) { replaceTournamentGame(tournamentId: $t, gameId: $g, newGameId: $n) { \
        name games { id } } }";
    let (_, code) =
        server.error_code(Some(&organizer), replace, json!({ "t": tid, "g": second["id"], "n": caverna["id"] }));
    assert_eq!(code, "BAD_USER_INPUT");
    let third = submit(&server, &token, &toy("plain", &[1, 1, 1, 1, 1, 2], None))["game"].clone();
    let t = server.data(Some(&organizer), replace, json!({ "t": tid, "g": second["id"], "n": third["id"] }));
    assert_eq!(t["replaceTournamentGame"]["games"], json!([{ "id": game["id"] }, { "id": third["id"] }]));
    let remove =
        "mutation($t: ID!, $g: ID!) { removeGameFromTournament(tournamentId: $t, gameId: $g) { games { id } } }";
    let (_, code) = server.error_code(Some(&organizer), remove, json!({ "t": tid, "g": second["id"] }));
    assert_eq!(code, "NOT_FOUND");
    let (_, code) = server.error_code(Some(&token), remove, json!({ "t": tid, "g": game["id"] }));
    assert_eq!(code, "FORBIDDEN", "an API token is not the organizer's");
    let t = server.data(Some(&organizer), remove, json!({ "t": tid, "g": game["id"] }));
    assert_eq!(t["removeGameFromTournament"]["games"], json!([{ "id": third["id"] }]));
    let rename = "mutation($t: ID!) { renameTournament(tournamentId: $t, name: \"Toy Open 2026\") { name } }";
    assert_eq!(server.data(Some(&organizer), rename, json!({ "t": tid }))["renameTournament"]["name"], "Toy Open 2026");
    let list = server.data(None, "{ tournaments { id name } }", json!({}));
    assert_eq!(list["tournaments"], json!([{ "id": tid, "name": "Toy Open 2026" }]));

    // The legal next entries from the game's own engine, and the alternatives at an illegal one.
    let q = "query($log: JSON!) { legalEntries(log: $log) }";
    let legal = server.data(None, q, json!({ "log": toy("plain", &[3, 1], None) }))["legalEntries"].clone();
    let expected = json!({ "game": "toy", "complete": true, "count": 3, "groups": [{ "type": null, "entries": [
        { "player": 0, "steps": 1 }, { "player": 0, "steps": 2 }, { "player": 0, "steps": 3 }] }] });
    assert_eq!(legal["count"], expected["count"]);
    assert_eq!(legal["groups"][0]["entries"], expected["groups"][0]["entries"]);
    let legal = server.data(None, q, json!({ "log": toy("plain", &[3, 1, 4], None) }))["legalEntries"].clone();
    assert_eq!(legal["count"], 3, "the alternatives to the illegal third entry: {legal}");

    // Listed by game, and replayed by its own engine.
    let list = server.data(None, "{ games(filter: { game: \"toy\" }) { edges { node { id game } } } }", json!({}));
    let ids: Vec<&Value> = list["games"]["edges"].as_array().expect("edges").iter().map(|e| &e["node"]["id"]).collect();
    assert_eq!(ids, vec![&game["id"], &second["id"], &third["id"]]);
    let q = "query($id: ID!) { replay(gameId: $id, atEntry: 2) { round phase state } }";
    let state = server.data(None, q, json!({ "id": game["id"] }))["replay"].clone();
    assert_eq!(
        state,
        json!({ "round": 2, "phase": "move", "state": { "steps": [4, 1], "doubled": true, "to_move": 1 } })
    );
    let (_, code) =
        server.error_code(None, "{ games(filter: { game: \"chess\" }) { edges { node { id } } } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");
}

/// Every game Chronicle knows is verified by its engine (`unsupported_game` is reserved for a
/// game named before its engine exists); a format that names no game is `bad_format`.
fn every_known_game_has_its_engine_and_unknown_formats_are_bad_format(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "uploader");
    let kinds =
        server.data(None, "{ gameKinds { id format verified minPlayers maxPlayers scoreRows { id } } }", json!({}));
    let by_id = |id: &str| kinds["gameKinds"].as_array().and_then(|a| a.iter().find(|k| k["id"] == id).cloned());
    for id in ["caverna", "toy", "village", "above-and-below"] {
        assert_eq!(by_id(id).map(|k| k["verified"].clone()), Some(json!(true)), "{id}");
    }
    let village = by_id("village").unwrap_or_default();
    assert_eq!(village["format"].as_str(), Some("village-log/1"));
    assert_eq!(village["scoreRows"].as_array().map(Vec::len), Some(9));

    // A Village log with a broken setup is a Village game, invalid by its engine's code.
    let log = json!({ "format": "village-log/1", "setup": { "players": [] }, "entries": [] });
    let r = submit(&server, &token, &log);
    assert_eq!((r["game"]["game"].as_str(), r["game"]["status"].as_str()), (Some("village"), Some("INVALID")));
    assert!(r["game"]["error"]["code"].as_str().is_some_and(|c| c != "unsupported_game"), "{r}");
    let unknown = submit(&server, &token, &json!({ "format": "chess-log/1" }));
    assert_eq!(
        (unknown["game"]["game"].clone(), unknown["game"]["error"]["code"].clone()),
        (Value::Null, json!("bad_format"))
    );
}
