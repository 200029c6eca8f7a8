//! The GraphQL service end to end: each test starts the real `chronicle serve` binary on a free
//! port and talks GraphQL over HTTP to it with a plain HTTP client, against SQLite and
//! PostgreSQL (`name::sqlite`, `name::postgres`; PostgreSQL as in the store contract tests).

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(
    submit_verify_and_read_games,
    list_games_with_cursor_pagination_and_filters,
    replay_state_matches_the_cli,
    tournaments_standings_and_verification,
    mutations_need_a_valid_token,
    request_limits_are_enforced,
    concurrent_submissions_store_each_game_once,
    health_readiness_graphiql_and_graceful_shutdown,
    statistics_match_plain_counts_and_follow_new_games,
);

// ---------------------------------------------------------------------------------------------
// Operations

const SUBMIT: &str = "mutation($log: JSON!) { submitGame(log: $log) { duplicate game { id status round \
    entriesApplied playerCount furnishingSet engineVersion error { entry player code message } \
    players { seat name winner rank claimedScore score { farmAnimalsAndDogs missingFarmAnimalTypes grain \
    vegetables rubies dwarfs unusedSpaces tilesPasturesMines bonusParlorsStoragesChambers goldAndBegging total } } \
    claimedMismatches { player claimed computed } meta { id tournament playedAt } format uploader uploadedAt logSha256 } } }";

fn submit(server: &Server, token: &str, log: &Value) -> Value {
    server.data(Some(token), SUBMIT, json!({ "log": log }))["submitGame"].clone()
}

/// The score rows of a sidecar (`*.expect.json`) in the API's field names.
fn expected_scores(name: &str) -> Vec<Value> {
    let path = fixtures_dir().join(name.replace(".json", ".expect.json"));
    let expect: Value = serde_json::from_slice(&std::fs::read(path).expect("sidecar")).expect("JSON");
    expect["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            let s = &p["score"];
            json!({
                "farmAnimalsAndDogs": s["farm_animals_and_dogs"], "missingFarmAnimalTypes": s["missing_farm_animal_types"],
                "grain": s["grain"], "vegetables": s["vegetables"], "rubies": s["rubies"], "dwarfs": s["dwarfs"],
                "unusedSpaces": s["unused_spaces"], "tilesPasturesMines": s["tiles_pastures_mines"],
                "bonusParlorsStoragesChambers": s["bonus_parlors_storages_chambers"],
                "goldAndBegging": s["gold_and_begging"], "total": s["total"],
            })
        })
        .collect()
}

fn submit_verify_and_read_games(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "alice");

    // A complete game: every score-pad row as the golden sidecar says (RULES.md G.1).
    let first = submit(&server, &token, &log("complete_2p.json"));
    assert_eq!(first["duplicate"], false);
    let game = &first["game"];
    assert_eq!(game["status"], "COMPLETE");
    assert_eq!(game["round"], 12);
    assert_eq!(game["playerCount"], 2);
    assert_eq!(game["uploader"], "alice");
    assert_eq!(game["meta"]["id"], "home-2025-03-02-a");
    assert_eq!(game["format"], "caverna-log/1");
    let scores: Vec<Value> = game["players"].as_array().unwrap().iter().map(|p| p["score"].clone()).collect();
    assert_eq!(scores, expected_scores("complete_2p.json"));
    assert_eq!(game["players"][1]["winner"], true);
    assert_eq!(game["players"][0]["claimedScore"], 42);
    assert_eq!(game["claimedMismatches"], json!([]));

    // The same log again (even re-serialized differently) is a duplicate of the same game.
    let again =
        submit(&server, &token, &Value::String(serde_json::to_string_pretty(&log("complete_2p.json")).unwrap()));
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["game"]["id"], game["id"]);

    // An illegal log is a result, stored with its error (LOG-FORMAT "Replay result").
    let invalid = submit(&server, &token, &log("invalid_after_game_end.json"));
    assert_eq!(invalid["game"]["status"], "INVALID");
    assert_eq!(invalid["game"]["error"]["entry"], 70);
    assert_eq!(invalid["game"]["error"]["player"], 0);
    assert_eq!(invalid["game"]["error"]["code"], "unexpected_entry");

    // A malformed log: not a JSON object, or not JSON at all (sent as a string).
    for bad in [json!(42), json!("{\"format\": \"caverna-log/1\", "), json!({ "format": "caverna-log/1" })] {
        let r = submit(&server, &token, &bad);
        assert_eq!(r["game"]["status"], "INVALID", "{bad}");
        assert!(r["game"]["error"]["code"].is_string());
        assert_eq!(r["game"]["players"], json!([]));
    }

    // submitGames: one result per log, in order; a repeat inside the batch is a duplicate.
    let many = server.data(
        Some(&token),
        "mutation($logs: [JSON!]!) { submitGames(logs: $logs) { duplicate game { id status } } }",
        json!({ "logs": [log("complete_3p.json"), log("complete_2p.json"), log("complete_3p.json")] }),
    )["submitGames"]
        .clone();
    assert_eq!(many[0]["duplicate"], false);
    assert_eq!(many[1]["duplicate"], true);
    assert_eq!(many[1]["game"]["id"], game["id"]);
    assert_eq!(many[2]["duplicate"], true);
    assert_eq!(many[2]["game"]["id"], many[0]["game"]["id"]);

    // verifyLog replays without storing; claimed scores that differ are reported.
    let mut wrong = log("complete_3p.json");
    wrong["claimed"]["scores"][1] = json!(99);
    let v = server.data(
        None,
        "query($log: JSON!) { verifyLog(log: $log) { status round error { code } players { name score { total } } \
         claimedMismatches { player claimed computed } } }",
        json!({ "log": wrong }),
    )["verifyLog"]
        .clone();
    assert_eq!(v["status"], "COMPLETE");
    assert_eq!(v["claimedMismatches"], json!([{ "player": 1, "claimed": 99, "computed": 51 }]));
    let count = server.data(None, "{ games(first: 100) { edges { node { id } } } }", json!({}));
    assert_eq!(count["games"]["edges"].as_array().unwrap().len(), 6, "verifyLog stored nothing");

    // game(id): what was stored, including the raw log; unknown ids are null; bad ids an error.
    let id = game["id"].as_str().unwrap();
    let read =
        server.data(None, "query($id: ID!) { game(id: $id) { id status players { name } log } }", json!({ "id": id }));
    assert_eq!(read["game"]["players"][0]["name"], "Ada");
    let text = read["game"]["log"].as_str().expect("the log's text");
    assert_eq!(serde_json::from_str::<Value>(text).expect("JSON"), log("complete_2p.json"));
    assert_eq!(server.data(None, "{ game(id: \"999999\") { id } }", json!({}))["game"], Value::Null);
    assert_eq!(server.error_code(None, "{ game(id: \"x\") { id } }", json!({})), (200, "BAD_USER_INPUT".into()));
}

/// `legalEntries`: a Caverna log's legal next entries grouped by space, and for an invalid log
/// the alternatives to its illegal entry, each of which replays as legal.
#[test]
fn legal_entries_after_a_prefix_and_at_an_illegal_entry() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let invalid = log("invalid_space_occupied.json");
    let q = "query($log: JSON!, $p: Int) { legalEntries(log: $log, player: $p, limit: 1000) }";
    let legal = server.data(None, q, json!({ "log": invalid, "p": Value::Null }))["legalEntries"].clone();
    assert_eq!(legal["game"], "caverna");
    assert_eq!(legal["complete"], false, "free actions are not enumerated in the work phase");
    let groups = legal["groups"].as_array().expect("groups");
    assert!(groups.iter().all(|g| g["type"] == "place" && g["space"].is_string()), "{legal}");
    assert!(groups.iter().all(|g| g["space"] != "logging"), "the occupied space is not offered");
    let verify = "query($log: JSON!) { verifyLog(log: $log) { status } }";
    let at = invalid["entries"].as_array().unwrap().len() - 1;
    for g in groups {
        let mut fixed = invalid.clone();
        fixed["entries"][at] = g["entries"][0].clone();
        let v = server.data(None, verify, json!({ "log": fixed }));
        assert_ne!(v["verifyLog"]["status"], "INVALID", "{} offered but refused", g["entries"][0]);
    }
    let other = server.data(None, q, json!({ "log": invalid, "p": 0 }))["legalEntries"].clone();
    assert_eq!(other["count"], 0, "not player 0's turn");
    let (_, code) = server.error_code(None, q, json!({ "log": { "format": "chess-log/1" }, "p": Value::Null }));
    assert_eq!(code, "BAD_USER_INPUT", "no game Chronicle knows");
    let village = server.data(None, q, json!({ "log": { "format": "village-log/1" }, "p": Value::Null }));
    assert_eq!(
        (&village["legalEntries"]["game"], &village["legalEntries"]["count"]),
        (&json!("village"), &json!(0)),
        "a Village log without a valid setup has no legal entry"
    );
}

/// `entrySteps`: a `place` entry built by choosing options only (space, then the first option
/// of each step until the draft is a legal entry), which replays as legal; an illegal draft is
/// an `ILLEGAL_DRAFT` error naming the action; `verifyLog { alternatives }` gives the legal
/// entries at an invalid log's illegal entry (null for a valid log).
#[test]
fn entry_steps_build_a_legal_entry_and_verdicts_carry_alternatives() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let invalid = log("invalid_space_occupied.json");
    let at = invalid["entries"].as_array().unwrap().len() - 1;
    let mut prefix = invalid.clone();
    prefix["entries"].as_array_mut().unwrap().truncate(at);
    let player = invalid["entries"][at]["player"].clone();
    let q = "query($log: JSON!, $d: JSON!) { entrySteps(log: $log, draft: $d) }";
    let mut draft = json!({ "player": player });
    let first = server.data(None, q, json!({ "log": prefix, "d": draft }))["entrySteps"].clone();
    assert_eq!(first["groups"][0]["id"], "space", "{first}");
    assert!(first["entry"].is_null());
    let spaces: Vec<&str> =
        first["groups"][0]["options"].as_array().unwrap().iter().filter_map(|o| o["draft"]["space"].as_str()).collect();
    assert!(!spaces.contains(&"logging"), "the occupied space is not offered: {spaces:?}");
    let entry = loop {
        let st = server.data(None, q, json!({ "log": prefix, "d": draft }))["entrySteps"].clone();
        if !st["entry"].is_null() {
            break st["entry"].clone();
        }
        let groups = st["groups"].as_array().unwrap();
        let group = groups.iter().find(|g| g["id"] != "free").expect("a way on");
        draft = group["options"][0]["draft"].clone();
    };
    assert_eq!(entry["type"], "place");
    let mut fixed = prefix.clone();
    fixed["entries"].as_array_mut().unwrap().push(entry.clone());
    let verify = "query($log: JSON!) { verifyLog(log: $log) { status alternatives(limit: 1000) } }";
    let v = server.data(None, verify, json!({ "log": fixed }))["verifyLog"].clone();
    assert_ne!(v["status"], "INVALID", "{entry} was built step by step but is refused");
    assert!(v["alternatives"].is_null(), "a legal log has no alternatives");

    let illegal = json!({ "player": player, "space": entry["space"], "actions": [{ "do": "grow" }, { "do": "grow" }] });
    let (_, code) = server.error_code(None, q, json!({ "log": prefix, "d": illegal }));
    assert_eq!(code, "ILLEGAL_DRAFT");
    let (_, code) = server.error_code(None, q, json!({ "log": prefix, "d": { "player": player, "spce": 1 } }));
    assert_eq!(code, "ILLEGAL_DRAFT", "a malformed draft");

    let v = server.data(None, verify, json!({ "log": invalid }))["verifyLog"].clone();
    assert_eq!(v["status"], "INVALID");
    let alternatives = v["alternatives"]["groups"].as_array().expect("alternatives at the illegal entry");
    assert!(alternatives.iter().any(|g| g["space"] == entry["space"]), "{alternatives:?}");
}

/// Ratings and strategy effects over the API: after one 2-player game (Bruno 52, Ada 42), the
/// winner's Weng-Lin rating is the crate's reference value for a new player beating a new
/// player (27.635… ± 8.0655…); every strategy counts each player-game once, used or not.
#[test]
fn ratings_and_strategy_effects_over_the_api() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "rater");
    let q = "mutation($log: JSON!) { submitGame(log: $log) { game { status } } }";
    server.data(Some(&token), q, json!({ "log": log("complete_2p.json") }));
    let ratings = server.data(None, "{ caverna { ratings { player key mu sigma conservative games } } }", json!({}));
    let table = ratings["caverna"]["ratings"].as_array().unwrap().clone();
    assert_eq!(table.len(), 2, "{ratings}");
    assert_eq!((&table[0]["player"], &table[0]["key"]), (&json!("Bruno"), &json!("name:bruno")));
    assert!((table[0]["mu"].as_f64().unwrap() - 27.635_231_383_473_65).abs() < 1e-9, "{ratings}");
    assert!((table[0]["sigma"].as_f64().unwrap() - 8.065_506_316_323_548).abs() < 1e-9);
    assert_eq!(table[1]["games"], 1);
    let before =
        server.data(None, "{ games(first: 1) { edges { node { ratingsBefore { seat mu sigma } } } } }", json!({}));
    let seats = before["games"]["edges"][0]["node"]["ratingsBefore"].as_array().unwrap().clone();
    assert_eq!(seats.len(), 2, "both seats were new players: {before}");
    assert!(seats.iter().all(|s| s["mu"] == 25.0), "a new player is 25 before the game");
    server.data(Some(&token), q, json!({ "log": log("complete_3p.json") }));
    let effects = server.data(
        None,
        "{ caverna { strategyEffects { strategy used { n successes } notUsed { n } rawDifference { difference ciLow ciHigh } playerGames method controlledWin { estimate } informingGames notEnoughData } } }",
        json!({}),
    );
    let list = effects["caverna"]["strategyEffects"].as_array().unwrap();
    assert!(list.len() > 40, "every tile and `armed`");
    for e in list {
        let n = e["used"]["n"].as_i64().unwrap() + e["notUsed"]["n"].as_i64().unwrap();
        assert_eq!(n, 5, "2 + 3 player-games: {e}");
        assert_eq!(e["playerGames"], 5);
        assert!(e["method"].as_str().unwrap().contains("clustered by game"));
        // Two games are far below the support (docs/statistics.md "Support"): no controlled
        // estimate, and the answer says why.
        assert_eq!(e["controlledWin"], Value::Null, "{e}");
        assert!(e["notEnoughData"].as_str().is_some_and(|w| w.contains("(needs 20)")), "{e}");
    }
    let (_, code) = server.error_code(None, "{ caverna { ratings(first: 0) { player } } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");
    // A rating floor: every player of the game rated at least X before it (new players are at 0).
    let q = "query($r: Float) { caverna { strategyEffects(minRating: $r) { strategy used { n } notUsed { n } } } }";
    let counted = |r: f64| -> i64 {
        let v = server.data(None, q, json!({ "r": r }));
        let first = &v["caverna"]["strategyEffects"][0];
        first["used"]["n"].as_i64().unwrap() + first["notUsed"]["n"].as_i64().unwrap()
    };
    assert_eq!(counted(100.0), 0, "nobody is rated 100");
    assert_eq!(counted(-100.0), 5, "everybody is rated above -100");
}

/// `GET /metrics`: the OpenMetrics text Prometheus scrapes, with requests by route and status,
/// their latency, GraphQL operations by name, replays, stored games and rate-limit refusals.
/// (The counters are the process's: other tests' servers add to them, so only lower bounds are
/// checked.)
#[test]
fn metrics_count_requests_operations_replays_and_refusals() {
    let db = Database::sqlite();
    let server = Server::start(&db, &["--anonymous-rate-limit", "3"]);
    let token = create_token(&db, "metrics");
    let q = "mutation SubmitGames($logs: [JSON!]!) { submitGames(logs: $logs) { duplicate } }";
    let variables = json!({ "logs": [log("complete_2p.json")] });
    let body = json!({ "query": q, "variables": variables, "operationName": "SubmitGames" });
    let (status, _) = server.post_raw(Some(&token), body.to_string().into_bytes());
    assert_eq!(status, 200);
    for _ in 0..5 {
        server.get("/games");
    }
    let (status, text) = server.get("/metrics");
    assert_eq!(status, 200);
    let value = |line_start: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(line_start))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no `{line_start}` in\n{text}"))
    };
    assert!(value("chronicle_http_requests_total{route=\"/games\",method=\"GET\",status=\"200\"}") >= 3.0);
    assert!(value("chronicle_http_requests_total{route=\"/games\",method=\"GET\",status=\"429\"}") >= 1.0);
    assert!(value("chronicle_rate_limited_total{caller=\"anonymous\"}") >= 1.0);
    assert!(value("chronicle_graphql_operations_total{operation=\"SubmitGames\",outcome=\"ok\"}") >= 1.0);
    assert!(value("chronicle_replays_total{kind=\"submit\"}") >= 1.0);
    assert!(value("chronicle_games_stored_total") >= 1.0);
    assert!(text.contains("chronicle_http_request_seconds_bucket{le="), "latency histogram");
    assert!(text.ends_with("# EOF\n"));
}

fn list_games_with_cursor_pagination_and_filters(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "lister");
    let names = ["complete_2p.json", "complete_3p.json", "complete_4p.json", "complete_5p.json", "invalid_keep.json"];
    let ids: Vec<String> =
        names.iter().map(|n| submit(&server, &token, &log(n))["game"]["id"].as_str().unwrap().to_owned()).collect();

    // Pages of two, oldest first, until hasNextPage is false.
    let query = "query($after: String, $filter: GameFilter) { games(first: 2, after: $after, filter: $filter) { \
                 edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } }";
    let mut seen = Vec::new();
    let mut after = Value::Null;
    loop {
        let page = server.data(None, query, json!({ "after": after }))["games"].clone();
        seen.extend(page["edges"].as_array().unwrap().iter().map(|e| e["node"]["id"].as_str().unwrap().to_owned()));
        assert_eq!(page["pageInfo"]["hasPreviousPage"], !after.is_null());
        if page["pageInfo"]["hasNextPage"] == false {
            break;
        }
        after = page["pageInfo"]["endCursor"].clone();
    }
    assert_eq!(seen, ids);

    let filtered = |filter: Value| -> Vec<String> {
        let page = server.data(None, query, json!({ "filter": filter }))["games"]["edges"].clone();
        page.as_array().unwrap().iter().map(|e| e["node"]["id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(filtered(json!({ "playerCount": 3 })), vec![ids[1].clone()]);
    assert_eq!(filtered(json!({ "status": "INVALID" })), vec![ids[4].clone()]);
    // Ada plays in the 2- and 3-player games.
    let ada = filtered(json!({ "playerName": "Ada", "status": "COMPLETE" }));
    assert_eq!(ada, vec![ids[0].clone(), ids[1].clone()]);
    // played_at: 2025-03-02T19:30:00Z (2p), 2025-03-14T18:00:00Z (3p), 2025-05-17T14:00:00Z (5p);
    // the 4p and the invalid log have none.
    assert_eq!(filtered(json!({ "playedFrom": "2025-03-10" })), vec![ids[1].clone(), ids[3].clone()]);
    assert_eq!(filtered(json!({ "playedTo": "2025-03-02" })), vec![ids[0].clone()]);
    assert_eq!(
        filtered(json!({ "playedFrom": "2025-03-01", "playedTo": "2025-03-14" })),
        vec![ids[0].clone(), ids[1].clone()]
    );
    assert_eq!(filtered(json!({ "playedTo": "2025-03-14T17:59:59Z" })), vec![ids[0].clone()]);

    let (_, code) = server.error_code(None, "{ games(first: 101) { edges { cursor } } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");
    let (_, code) = server.error_code(None, "{ games(after: \"nope\") { edges { cursor } } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");
}

fn replay_state_matches_the_cli(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "replayer");
    let id = submit(&server, &token, &log("complete_2p.json"))["game"]["id"].as_str().unwrap().to_owned();
    let query = "query($id: ID!, $at: Int) { replay(gameId: $id, atEntry: $at) { gameId atEntry round phase state } }";
    for at in [Some(0), Some(17), None] {
        let r = server.data(None, query, json!({ "id": id, "at": at }))["replay"].clone();
        let path = fixtures_dir().join("complete_2p.json");
        let mut cmd = chronicle();
        cmd.args(["state", "--json"]).arg(&path);
        if let Some(n) = at {
            cmd.args(["--at", &n.to_string()]);
        }
        let out = cmd.output().expect("run chronicle state");
        let cli: Value = serde_json::from_slice(&out.stdout).expect("state JSON");
        assert_eq!(r["state"], cli, "at {at:?}");
        assert_eq!(r["round"], cli["round"]);
        assert_eq!(r["phase"], cli["phase"]);
        assert_eq!(r["atEntry"], json!(at));
    }
    let (_, code) = server.error_code(None, query, json!({ "id": id, "at": 70 }));
    assert_eq!(code, "BAD_USER_INPUT");
    assert_eq!(server.data(None, query, json!({ "id": "424242", "at": 1 }))["replay"], Value::Null);
}

fn tournaments_standings_and_verification(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "organizer");
    let created = server.data(
        Some(&token),
        "mutation { createTournament(name: \"Spring league\") { tournament { id name createdAt } organizerToken } }",
        json!({}),
    )["createTournament"]
        .clone();
    let tid = created["tournament"]["id"].as_str().unwrap().to_owned();
    let organizer = created["organizerToken"].as_str().unwrap().to_owned();
    assert_eq!(created["tournament"]["name"], "Spring league");

    let mut wrong = log("complete_3p.json");
    wrong["claimed"]["scores"][2] = json!(49);
    let games: Vec<String> = [log("complete_2p.json"), wrong, log("invalid_keep.json")]
        .iter()
        .map(|l| submit(&server, &token, l)["game"]["id"].as_str().unwrap().to_owned())
        .collect();

    let add =
        "mutation($t: ID!, $g: [ID!]!) { addGamesToTournament(tournamentId: $t, gameIds: $g) { id games { id } } }";
    let added = server.data(Some(&organizer), add, json!({ "t": tid, "g": [games[0], games[1]] }));
    assert_eq!(added["addGamesToTournament"]["games"], json!([{ "id": games[0] }, { "id": games[1] }]));
    // Adding a game twice keeps it once; an unknown game adds nothing.
    server.data(Some(&organizer), add, json!({ "t": tid, "g": [games[1]] }));
    let (_, code) = server.error_code(Some(&organizer), add, json!({ "t": tid, "g": [games[2], "987654"] }));
    assert_eq!(code, "NOT_FOUND");

    let query = "query($t: ID!) { tournament(id: $t) { name games { id } standings { rank player games wins totalScore } \
                 verification { games allComplete allLegal scoreMismatches { gameId player name claimed computed } unclaimedGames } } }";
    let t = server.data(None, query, json!({ "t": tid }))["tournament"].clone();
    assert_eq!(t["games"].as_array().unwrap().len(), 2);
    // 2p: Ada 42, Bruno 52 (wins). 3p: Ada 42, Bruno 51 (wins), Cleo 50.
    assert_eq!(
        t["standings"],
        json!([
            { "rank": 1, "player": "Bruno", "games": 2, "wins": 2, "totalScore": 103 },
            { "rank": 2, "player": "Ada", "games": 2, "wins": 0, "totalScore": 84 },
            { "rank": 3, "player": "Cleo", "games": 1, "wins": 0, "totalScore": 50 },
        ])
    );
    assert_eq!(
        t["verification"],
        json!({ "games": 2, "allComplete": true, "allLegal": true, "unclaimedGames": [],
                "scoreMismatches": [{ "gameId": games[1], "player": 2, "name": "Cleo", "claimed": 49, "computed": 50 }] })
    );

    server.data(Some(&organizer), add, json!({ "t": tid, "g": [games[2]] }));
    let v = server.data(None, query, json!({ "t": tid }))["tournament"]["verification"].clone();
    assert_eq!((v["allComplete"].clone(), v["allLegal"].clone()), (json!(false), json!(false)));
    assert_eq!(server.data(None, query, json!({ "t": "31337" }))["tournament"], Value::Null);
}

// ---------------------------------------------------------------------------------------------
// Security and limits

fn mutations_need_a_valid_token(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "member");
    let submit_query = "mutation($log: JSON!) { submitGame(log: $log) { game { id } } }";
    let vars = json!({ "log": log("complete_2p.json") });

    assert_eq!(server.error_code(None, submit_query, vars.clone()), (200, "UNAUTHENTICATED".into()));
    assert_eq!(server.error_code(Some("chr_not_a_token"), submit_query, vars.clone()), (401, "UNAUTHENTICATED".into()));
    let (status, body) = server.post_raw(None, b"[1, 2]".to_vec());
    assert_eq!((status, body["errors"][0]["extensions"]["code"].as_str()), (400, Some("BAD_REQUEST")));
    // Reads are public; a bad token is refused even for reads.
    server.data(None, "{ games { edges { cursor } } }", json!({}));
    assert_eq!(server.error_code(Some("nope"), "{ games { edges { cursor } } }", json!({})).0, 401);

    // Tournament changes need that tournament's organizer token.
    let create = "mutation { createTournament(name: \"Cup\") { tournament { id } organizerToken } }";
    let a = server.data(Some(&token), create, json!({}))["createTournament"].clone();
    let b = server.data(Some(&token), create, json!({}))["createTournament"].clone();
    let id = server.data(Some(&token), submit_query, vars)["submitGame"]["game"]["id"].clone();
    let add = "mutation($t: ID!, $g: [ID!]!) { addGamesToTournament(tournamentId: $t, gameIds: $g) { id } }";
    let to_a = json!({ "t": a["tournament"]["id"], "g": [id] });
    assert_eq!(server.error_code(None, add, to_a.clone()).1, "UNAUTHENTICATED");
    assert_eq!(server.error_code(Some(&token), add, to_a.clone()).1, "FORBIDDEN");
    assert_eq!(server.error_code(b["organizerToken"].as_str(), add, to_a.clone()).1, "FORBIDDEN");
    server.data(a["organizerToken"].as_str(), add, to_a);
    // An organizer token cannot create tournaments.
    assert_eq!(server.error_code(a["organizerToken"].as_str(), create, json!({})).1, "FORBIDDEN");
}

fn request_limits_are_enforced(db: Database) {
    let server = Server::start(
        &db,
        &["--body-limit", "65536", "--max-depth", "5", "--max-complexity", "60", "--rate-limit", "3"],
    );
    let token = create_token(&db, "limited");

    let big = json!({ "query": "{ games { edges { cursor } } }", "variables": { "pad": "x".repeat(70_000) } });
    let (status, body) = server.post_raw(None, serde_json::to_vec(&big).unwrap());
    assert_eq!((status, body["errors"][0]["extensions"]["code"].as_str()), (413, Some("BODY_TOO_LARGE")));

    let deep = "{ tournament(id: \"1\") { games { players { score { total } } } } }";
    server.data(None, deep, json!({}));
    let deeper = "{ games(first: 1) { edges { node { players { score { total } } } } } }";
    assert_eq!(server.error_code(None, deeper, json!({})).1, "QUERY_TOO_DEEP");
    let complex = "{ games(first: 100) { edges { node { id status round } } } }";
    assert_eq!(server.error_code(None, complex, json!({})).1, "QUERY_TOO_COMPLEX");
    server.data(None, "{ games(first: 5) { edges { node { id status round } } } }", json!({}));
    assert_eq!(server.error_code(None, "{ games { ", json!({})).1, "GRAPHQL_PARSE_FAILED");
    assert_eq!(server.error_code(None, "{ nosuchfield }", json!({})).1, "GRAPHQL_VALIDATION_FAILED");
    let (status, body) = server.post_raw(None, b"{\"query\": ".to_vec());
    assert_eq!((status, body["errors"][0]["extensions"]["code"].as_str()), (400, Some("BAD_REQUEST")));

    // Three requests a minute for this token; the fourth is refused, anonymous reads go on.
    let read = "{ games { edges { cursor } } }";
    for _ in 0..3 {
        server.data(Some(&token), read, json!({}));
    }
    assert_eq!(server.error_code(Some(&token), read, json!({})), (429, "RATE_LIMITED".into()));
    server.data(None, read, json!({}));
}

fn concurrent_submissions_store_each_game_once(db: Database) {
    let server = Server::start(&db, &["--rate-limit", "100000"]);
    let token = create_token(&db, "crowd");
    let base = fixture("complete_solo.json").bytes;
    let logs: Vec<Value> =
        (0..500).map(|i| serde_json::from_slice(&variant(&base, &format!("crowd-{i}"))).expect("JSON")).collect();
    let query = "mutation($log: JSON!) { submitGame(log: $log) { duplicate game { id status } } }";
    let results: Vec<Vec<(String, bool)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|client| {
                let (server, token, logs) = (&server, &token, &logs);
                scope.spawn(move || {
                    // Each client in its own order, so that clients race on the same games.
                    let order: Vec<usize> = (0..logs.len()).map(|i| (i * 7 + client * 61) % logs.len()).collect();
                    order
                        .iter()
                        .map(|&i| {
                            let r = server.data(Some(token), query, json!({ "log": logs[i] }))["submitGame"].clone();
                            assert_eq!(r["game"]["status"], "COMPLETE");
                            (r["game"]["id"].as_str().unwrap().to_owned(), r["duplicate"].as_bool().unwrap())
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("client thread")).collect()
    });
    let all: Vec<&(String, bool)> = results.iter().flatten().collect();
    assert_eq!(all.len(), 4000);
    let new = all.iter().filter(|(_, dup)| !dup).count();
    assert_eq!(new, 500, "exactly one submission of each game is new");
    let ids: std::collections::BTreeSet<&String> = all.iter().map(|(id, _)| id).collect();
    assert_eq!(ids.len(), 500);

    let mut stored = 0;
    let mut after = Value::Null;
    loop {
        let page = server.data(
            None,
            "query($a: String) { games(first: 100, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }",
            json!({ "a": after }),
        )["games"]
            .clone();
        stored += page["edges"].as_array().unwrap().len();
        if page["pageInfo"]["hasNextPage"] == false {
            break;
        }
        after = page["pageInfo"]["endCursor"].clone();
    }
    assert_eq!(stored, 500);
}

fn health_readiness_graphiql_and_graceful_shutdown(db: Database) {
    let server = Server::start(&db, &[]);
    let (status, body) = server.get("/healthz");
    assert_eq!((status, body.contains("ok")), (200, true));
    let (status, body) = server.get("/readyz");
    assert_eq!(status, 200);
    let ready: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(ready["status"], "ready");
    let (status, page) = server.get("/graphiql");
    assert_eq!(status, 200);
    assert!(page.contains("GraphQL console") && page.contains("/graphql"));
    // Nothing the page loads comes from elsewhere.
    assert!(!page.contains("http://") && !page.contains("https://"), "the console loads remote code");
    for asset in ["graphiql.min.js", "graphiql.min.css", "react.production.min.js", "react-dom.production.min.js"] {
        assert!(page.contains(&format!("/assets/graphiql/{asset}")), "{asset} from this server");
        let (status, body) = server.get(&format!("/assets/graphiql/{asset}"));
        assert_eq!(status, 200, "{asset}");
        assert!(body.len() > 4000, "{asset} decompressed for a client without gzip");
    }
    assert_eq!(server.get("/nowhere").0, 404);
    let status = server.terminate();
    assert!(status.success(), "exit status after SIGTERM: {status:?}");
}

// ---------------------------------------------------------------------------------------------
// Statistics

/// Per player-game of the complete logs, computed with plain loops from the engine's replay:
/// (player count, seat, winner, total, tiles built, max final weapon strength).
struct PlainRow {
    player_count: usize,
    seat: usize,
    winner: bool,
    total: i64,
    tiles: std::collections::BTreeSet<String>,
    max_strength: Option<i16>,
    /// The round of the player's first `Forged` event.
    first_armed: Option<u8>,
    /// The round of the player's first `Expedition` event.
    first_expedition: Option<u8>,
}

fn plain_rows(logs: &[Value]) -> Vec<PlainRow> {
    let mut rows = Vec::new();
    for log in logs {
        let r = chronicle_caverna::replay(&serde_json::to_vec(log).unwrap());
        if r.status != chronicle_caverna::Status::Complete {
            continue;
        }
        let record = chronicle_ingest::games::record_of(&serde_json::to_vec(log).unwrap(), Some("caverna-log/1"));
        let scores = r.scores.as_ref().expect("complete games have scores");
        let events = r.game.as_ref().map(|g| g.events().to_vec()).unwrap_or_default();
        for (seat, s) in scores.iter().enumerate() {
            let tiles = events
                .iter()
                .filter_map(|e| match e {
                    chronicle_caverna::events::Event::Furnished { player, tile, .. } if *player == seat => {
                        Some(tile.id().to_owned())
                    }
                    _ => None,
                })
                .collect();
            let max_strength = record
                .caverna()
                .weapons
                .iter()
                .filter(|w| w.player as usize == seat)
                .filter_map(|w| w.final_strength)
                .max();
            let first_armed = events
                .iter()
                .filter_map(|e| match e {
                    chronicle_caverna::events::Event::Forged { player, round, .. } if *player == seat => Some(*round),
                    _ => None,
                })
                .min();
            let first_expedition = events
                .iter()
                .filter_map(|e| match e {
                    chronicle_caverna::events::Event::Expedition { player, round, .. } if *player == seat => {
                        Some(*round)
                    }
                    _ => None,
                })
                .min();
            rows.push(PlainRow {
                player_count: scores.len(),
                seat,
                winner: r.winners.contains(&seat),
                total: s.score.total,
                tiles,
                max_strength,
                first_armed,
                first_expedition,
            });
        }
    }
    rows
}

fn simulated(games: usize, players: usize, seed: u64) -> Vec<Value> {
    let out = chronicle()
        .args(["simulate", "--games", &games.to_string(), "--players", &players.to_string()])
        .args(["--seed", &seed.to_string(), "--bot", "mixed", "--out", "-"])
        .output()
        .expect("run chronicle simulate");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-9)
}

fn statistics_match_plain_counts_and_follow_new_games(db: Database) {
    let server = Server::start(&db, &["--rate-limit", "100000"]);
    let token = create_token(&db, "stats");
    let mut logs = simulated(24, 3, 5);
    logs.extend(simulated(12, 2, 6));
    let submit_all = "mutation($l: [JSON!]!) { submitGames(logs: $l) { game { status } } }";
    server.data(Some(&token), submit_all, json!({ "l": logs }));
    // Neither an invalid nor an incomplete game counts.
    let mut partial = log("complete_2p.json");
    partial["entries"].as_array_mut().unwrap().truncate(20);
    server.data(Some(&token), submit_all, json!({ "l": [log("invalid_keep.json"), partial] }));
    let rows = plain_rows(&logs);

    // Furnishings (full set: every tile is eligible in every player-game).
    let q = "{ furnishingStats { tile playerGames built winRateBuilt winRateNotBuilt ciLow ciHigh meanScoreBuilt belowMinSample \
             winRateDifference winRateDifferenceCiLow winRateDifferenceCiHigh } }";
    let tiles = server.data(None, q, json!({}))["furnishingStats"].as_array().unwrap().clone();
    assert_eq!(tiles.len(), 48);
    for t in &tiles {
        let id = t["tile"].as_str().unwrap();
        let built: Vec<&PlainRow> = rows.iter().filter(|r| r.tiles.contains(id)).collect();
        let not_built = rows.len() - built.len();
        assert_eq!(t["playerGames"], rows.len(), "{id}");
        assert_eq!(t["built"], built.len(), "{id}");
        let wins = built.iter().filter(|r| r.winner).count();
        let rate = if built.is_empty() { 0.0 } else { wins as f64 / built.len() as f64 };
        assert!(close(&t["winRateBuilt"], rate), "{id}: {t}");
        let other_wins = rows.iter().filter(|r| r.winner && !r.tiles.contains(id)).count();
        let other = if not_built == 0 { 0.0 } else { other_wins as f64 / not_built as f64 };
        assert!(close(&t["winRateNotBuilt"], other), "{id}: {t}");
        assert!(t["ciLow"].as_f64().unwrap() <= rate + 1e-12 && rate <= t["ciHigh"].as_f64().unwrap() + 1e-12);
        assert_eq!(t["belowMinSample"], built.len() < 30);
        // The difference has an interval exactly when it exists, and lies inside it.
        assert_eq!(t["winRateDifference"].is_null(), t["winRateDifferenceCiLow"].is_null(), "{id}: {t}");
        if let (Some(d), Some(lo), Some(hi)) = (
            t["winRateDifference"].as_f64(),
            t["winRateDifferenceCiLow"].as_f64(),
            t["winRateDifferenceCiHigh"].as_f64(),
        ) {
            assert!(lo <= d + 1e-12 && d <= hi + 1e-12, "{id}: {t}");
        }
        if !built.is_empty() {
            let mean = built.iter().map(|r| r.total as f64).sum::<f64>() / built.len() as f64;
            assert!(close(&t["meanScoreBuilt"], mean), "{id}");
        }
    }

    // Weapon strategies: peaceful (never armed), light (≤ 7), heavy (≥ 8).
    let q = "{ weaponStats { strategy playerGames winRate meanScore } }";
    let classes = server.data(None, q, json!({}))["weaponStats"].as_array().unwrap().clone();
    for (c, class) in classes.iter().zip(["peaceful", "light", "heavy"]) {
        assert_eq!(c["strategy"], class);
        let members: Vec<&PlainRow> = rows
            .iter()
            .filter(|r| match r.max_strength {
                None => class == "peaceful",
                Some(s) if s <= 7 => class == "light",
                Some(_) => class == "heavy",
            })
            .collect();
        assert_eq!(c["playerGames"], members.len(), "{class}");
        if !members.is_empty() {
            let wins = members.iter().filter(|r| r.winner).count() as f64 / members.len() as f64;
            assert!(close(&c["winRate"], wins), "{class}");
        }
    }

    // The round of the first weapon (the timing of arming), never armed first.
    // And of the first expedition.
    let q = "{ caverna { weaponDetail { byFirstArmed { group winRate { n rate } } byFirstExpedition { group winRate { n rate } } } } }";
    let detail = server.data(None, q, json!({}))["caverna"]["weaponDetail"].clone();
    type RoundOf = fn(&PlainRow) -> Option<u8>;
    let when: [(&str, RoundOf); 2] =
        [("byFirstArmed", |r| r.first_armed), ("byFirstExpedition", |r| r.first_expedition)];
    for (field, round_of) in when {
        let rounds = detail[field].as_array().unwrap().clone();
        let mut seen: Vec<Option<u8>> = rows.iter().map(round_of).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(rounds.len(), seen.len(), "{field}");
        for (g, round) in rounds.iter().zip(&seen) {
            assert_eq!(g["group"], round.map_or("round:never".to_owned(), |n| format!("round:{n}")));
            let members: Vec<&PlainRow> = rows.iter().filter(|r| round_of(r) == *round).collect();
            assert_eq!(g["winRate"]["n"], members.len(), "{field}: {g}");
            let wins = members.iter().filter(|r| r.winner).count() as f64 / members.len() as f64;
            assert!(close(&g["winRate"]["rate"], wins), "{field}: {g}");
        }
    }

    // Seats, scores, action spaces.
    let q = "{ seatStats(filter: { playerCount: 3 }) { bySeat { playerCount seat winRate { n successes } } }              scoreDistribution(bucketWidth: 5) { playerGames min max histogram { from count } }              actionSpaceStats { placements } }";
    let d = server.data(None, q, json!({}));
    for s in d["seatStats"]["bySeat"].as_array().unwrap() {
        let seat = s["seat"].as_u64().unwrap() as usize;
        let at: Vec<&PlainRow> = rows.iter().filter(|r| r.player_count == 3 && r.seat == seat).collect();
        assert_eq!(s["winRate"]["n"], at.len());
        assert_eq!(s["winRate"]["successes"], at.iter().filter(|r| r.winner).count());
    }
    let dist = &d["scoreDistribution"];
    assert_eq!(dist["playerGames"], rows.len());
    assert_eq!(dist["min"], rows.iter().map(|r| r.total).min().unwrap());
    assert_eq!(dist["max"], rows.iter().map(|r| r.total).max().unwrap());
    let histogram_total: u64 = dist["histogram"].as_array().unwrap().iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(histogram_total, rows.len() as u64);
    assert!(d["actionSpaceStats"]["placements"].as_u64().unwrap() > 0);

    // A new complete game counts at once.
    let q = "{ scoreDistribution { playerGames } }";
    let before = server.data(None, q, json!({}))["scoreDistribution"]["playerGames"].as_u64().unwrap();
    let extra = simulated(1, 4, 99);
    server.data(Some(&token), submit_all, json!({ "l": extra }));
    let after = server.data(None, q, json!({}))["scoreDistribution"]["playerGames"].as_u64().unwrap();
    assert_eq!(after, before + 4);

    // A restarted server loads the same statistics from the store.
    drop(server);
    let server = Server::start(&db, &[]);
    let reloaded = server.data(None, q, json!({}))["scoreDistribution"]["playerGames"].as_u64().unwrap();
    assert_eq!(reloaded, after);

    // Bad filters are user errors.
    let (_, code) =
        server.error_code(None, "{ weaponStats(filter: { playedFrom: \"soon\" }) { strategy } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");
}

both_stores!(the_server_listens_at_once_and_its_first_statistics_count_every_stored_game);

/// `chronicle serve` binds before the statistics are loaded (they load in the background,
/// docs/reliability.md "Start-up"): `/healthz` answers at once, and a statistics query sent
/// the moment the server listens waits for the load — its answer counts every stored game, as
/// the in-memory statistics computed before listening did.
fn the_server_listens_at_once_and_its_first_statistics_count_every_stored_game(db: Database) {
    import_simulated(&db, "300", "3", "21");
    import_simulated_of(&db, "village", "40", "3", "22");
    import_simulated_of(&db, "above-and-below", "30", "2", "23");
    let server = Server::start(&db, &[]);
    let q = "{ caverna { scoreDistribution { playerGames } } questions(game: \"caverna\") { playerGames } \
             village: outcomes(game: \"village\") { games playerGames } \
             aab: outcomes(game: \"above-and-below\") { games playerGames } }";
    let first = server.data(None, q, json!({}));
    assert_eq!(server.get("/healthz").0, 200);
    assert_eq!(first["caverna"]["scoreDistribution"]["playerGames"], 900, "{first}");
    assert_eq!(first["questions"]["playerGames"], 900, "{first}");
    // Every simulated game completes: the outcome reports count them all, from the tallies.
    assert_eq!((&first["village"]["games"], &first["village"]["playerGames"]), (&json!(40), &json!(120)), "{first}");
    assert_eq!((&first["aab"]["games"], &first["aab"]["playerGames"]), (&json!(30), &json!(60)), "{first}");
}

/// docs/reliability.md "Several servers": a server on a SQLite file sees the games another
/// process stores there (`chronicle import` while it serves) — its statistics, ratings and
/// questions count them within a second or two, as replicas on PostgreSQL learn by notification.
#[test]
fn a_server_on_sqlite_counts_games_another_process_imports() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let q = "{ caverna { scoreDistribution { playerGames } ratings(first: 500) { key } } questions(game: \"caverna\") { playerGames } }";
    let counts = || {
        let d = server.data(None, q, json!({}));
        let ratings = d["caverna"]["ratings"].as_array().map_or(0, Vec::len);
        (d["caverna"]["scoreDistribution"]["playerGames"].clone(), ratings, d["questions"]["playerGames"].clone())
    };
    assert_eq!(counts(), (json!(0), 0, json!(0)));
    import_simulated(&db, "12", "2", "5");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut seen = counts();
    while seen.0 != json!(24) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        seen = counts();
    }
    // Two bots' names ("random 1", "random 2") are the rated players.
    assert_eq!(seen, (json!(24), 2, json!(24)), "the imported games are counted");
}

/// Verdicts rewritten by another process (`chronicle reverify` into the same SQLite file) are
/// read by the running server within 2 s: the change sequence carries the rewrite
/// (docs/scaling.md, "Writers"). A stored score is made wrong behind the server's back first (as
/// an older engine might have left it), so that the rewrite changes what the statistics say.
#[test]
fn a_server_on_sqlite_reads_verdicts_another_process_rewrites() {
    let db = Database::sqlite();
    import_simulated(&db, "5", "2", "9");
    let url = db.url();
    runtime().block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&url).await.expect("open the store");
        let done = sqlx::query("UPDATE game_players SET total = total + 1000 WHERE game_id = 1 AND seat = 0")
            .execute(&mut c)
            .await
            .expect("make a stored score wrong");
        assert_eq!(done.rows_affected(), 1);
        // As in a store whose tallies were counted from that wrong verdict: counted again by
        // the server when it starts.
        for table in ["stat_counted", "stat_tallies", "stat_state"] {
            sqlx::query(&format!("DELETE FROM {table}")).execute(&mut c).await.expect("forget the tallies");
        }
    });
    let server = Server::start(&db, &[]);
    let q = "{ caverna { scoreDistribution { playerGames max } } }";
    let max = || server.data(None, q, json!({}))["caverna"]["scoreDistribution"]["max"].as_i64().unwrap_or(0);
    assert!(max() > 900, "the wrong score is counted before the reverify");
    let out = chronicle().args(["reverify", "--database-url", &url]).output().expect("chronicle reverify");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while max() > 900 {
        assert!(std::time::Instant::now() < deadline, "the rewritten verdicts are not read within 2 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(server.data(None, q, json!({}))["caverna"]["scoreDistribution"]["playerGames"], 10);
}

/// `chronicle simulate` then `chronicle import` into `db`, as another process would.
pub fn import_simulated(db: &Database, games: &str, players: &str, seed: &str) {
    import_simulated_of(db, "caverna", games, players, seed);
}

/// Simulates games of `game` and imports them with `chronicle import`.
pub fn import_simulated_of(db: &Database, game: &str, games: &str, players: &str, seed: &str) {
    let dir = TempDir::new();
    let out = chronicle()
        .args(["simulate", "--game", game, "--games", games, "--players", players, "--seed", seed, "--out"])
        .arg(&dir.0)
        .output()
        .expect("chronicle simulate");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = chronicle().args(["import", "--database-url", &db.url()]).arg(&dir.0).output().expect("chronicle import");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
