//! Player identities and the filters by source and uploader, through the real server, the
//! `chronicle` binary and both stores: an `id` in a log's player object makes games one player
//! whatever the name written; `chronicle players merge` makes two identities one; the
//! simulator's `meta.source` selects or leaves out simulated games in lists and statistics.

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(player_ids_and_merges_make_one_rated_player, games_and_statistics_filter_by_source_and_uploader);

const SUBMIT: &str = "mutation($log: JSON!) { submitGame(log: $log) { game { id status error { code message } players { name playerId } } } }";
const RATINGS: &str = "{ caverna { ratings { player key games } } }";

fn submit(server: &Server, token: &str, log: &Value) -> Value {
    server.data(Some(token), SUBMIT, json!({ "log": log }))["submitGame"]["game"].clone()
}

/// `(key, name, games)` of every rated player, by key.
fn ratings(server: &Server) -> Vec<(String, String, i64)> {
    let v = server.data(None, RATINGS, json!({}));
    let mut rows: Vec<(String, String, i64)> = v["caverna"]["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .map(|r| {
            (
                r["key"].as_str().unwrap().to_owned(),
                r["player"].as_str().unwrap().to_owned(),
                r["games"].as_i64().unwrap(),
            )
        })
        .collect();
    rows.sort();
    rows
}

fn cli(db: &Database, args: &[&str]) -> (bool, String, String) {
    let out = chronicle().args(args).args(["--database-url", &db.url()]).output().expect("run chronicle");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn player_ids_and_merges_make_one_rated_player(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "club");
    // Ada gives her id in the first two games, under two names; the third game writes her
    // full name without an id.
    let mut first = log("complete_2p.json");
    first["setup"]["players"][0]["id"] = json!("ada-7");
    let mut second = log("complete_3p.json");
    second["setup"]["players"][0] = json!({ "name": "Ada L.", "id": "ada-7" });
    let mut third = log("complete_2p.json");
    third["meta"]["id"] = json!("home-2025-03-09");
    third["setup"]["players"][0]["name"] = json!("Ada Lovelace");
    let game = submit(&server, &token, &first);
    assert_eq!(game["players"][0], json!({ "name": "Ada", "playerId": "ada-7" }));
    submit(&server, &token, &second);
    submit(&server, &token, &third);
    let row = |key: &str, name: &str, games: i64| (key.to_owned(), name.to_owned(), games);
    assert_eq!(
        ratings(&server),
        vec![
            row("id:ada-7", "Ada L.", 2),
            row("name:ada lovelace", "Ada Lovelace", 1),
            row("name:bruno", "Bruno", 3),
            row("name:cleo", "Cleo", 1),
        ],
        "one player per id, named as in their latest game"
    );

    // Statistics of the games a player sat in (every seat of those games counts).
    let with = |player: &str| -> i64 {
        let q = "query($p: String) { caverna { scoreDistribution(filter: { player: $p }) { playerGames } } }";
        server.data(None, q, json!({ "p": player }))["caverna"]["scoreDistribution"]["playerGames"].as_i64().unwrap()
    };
    assert_eq!((with("id:ada-7"), with("Cleo"), with("Nobody")), (5, 3, 0), "2 + 3 seats; 3 seats; none");
    let (_, code) =
        server.error_code(None, "{ caverna { seatStats(filter: { player: \"  \" }) { bySeat { seat } } } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");

    // An administrator merges the name into the id; the running server counts them as one.
    let (ok, out, err) = cli(&db, &["players", "merge", "id:ada-7", "Ada  LOVELACE"]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "name:ada lovelace -> id:ada-7");
    let merged = ratings(&server);
    assert_eq!(merged.len(), 3, "{merged:?}");
    assert_eq!(merged[0], row("id:ada-7", "Ada Lovelace", 3));
    assert_eq!(with("id:ada-7"), 7, "the merged identity's games count for the player");
    assert_eq!(server.get("/stats/scores?player=id:ada-7").0, 200);
    let (status, page) = server.get("/players/Ada Lovelace".replace(' ', "%20").as_str());
    assert_eq!(status, 200, "the merged name finds the player");
    assert!(page.contains("also recorded as") && page.contains("name:ada lovelace"), "{page}");
    let (ok, out, _) = cli(&db, &["players", "aliases", "--json"]);
    assert!(ok);
    let aliases: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(aliases, json!({ "alias": "name:ada lovelace", "player": "id:ada-7" }));
    // Merging a player into itself changes nothing and says why.
    let (ok, _, err) = cli(&db, &["players", "merge", "id:ada-7", "id:ada-7"]);
    assert!(!ok && err.contains("is the player merged into"), "{err}");
    let (ok, _, _) = cli(&db, &["players", "unmerge", "name:ada lovelace"]);
    assert!(ok);
    assert_eq!(ratings(&server).len(), 4, "unmerged: apart again");
    let (ok, _, err) = cli(&db, &["players", "unmerge", "name:ada lovelace"]);
    assert!(!ok && err.contains("was not merged"), "{err}");

    // Two seats with one id is not a game: the log is stored as invalid, with the reason.
    let mut twice = log("complete_2p.json");
    twice["setup"]["players"][1]["id"] = json!("ada-7");
    twice["setup"]["players"][0]["id"] = json!("ada-7");
    let game = submit(&server, &token, &twice);
    assert_eq!(game["status"], "INVALID");
    assert_eq!(game["error"]["code"], "malformed");
    assert!(game["error"]["message"].as_str().unwrap().contains("another seat's id"), "{game}");
}

fn games_and_statistics_filter_by_source_and_uploader(db: Database) {
    let server = Server::start(&db, &[]);
    let club = create_token(&db, "club");
    let sim = create_token(&db, "simulator");
    submit(&server, &club, &log("complete_2p.json"));
    let out =
        chronicle().args(["simulate", "--games", "2", "--players", "2", "--seed", "5", "--out", "-"]).output().unwrap();
    assert!(out.status.success());
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let simulated: Value = serde_json::from_str(line).unwrap();
        assert_eq!(simulated["meta"]["source"], "simulate:random", "the simulator says who played");
        assert_eq!(submit(&server, &sim, &simulated)["status"], "COMPLETE");
    }
    let count = |filter: Value| -> usize {
        let q = "query($f: GameFilter) { games(first: 100, filter: $f) { edges { node { id } } } }";
        server.data(None, q, json!({ "f": filter }))["games"]["edges"].as_array().unwrap().len()
    };
    assert_eq!(count(json!({})), 3);
    assert_eq!(count(json!({ "source": "simulate" })), 2, "a prefix of the source");
    assert_eq!(count(json!({ "source": "simulate:random" })), 2);
    assert_eq!(count(json!({ "excludeSource": "simulate" })), 1);
    assert_eq!(count(json!({ "uploader": "simulator" })), 2);
    assert_eq!(count(json!({ "uploader": "club", "excludeSource": "simulate" })), 1);
    assert_eq!(count(json!({ "source": "no such source" })), 0);

    let player_games = |filter: Value| -> i64 {
        let q = "query($f: StatsFilter) { caverna { scoreDistribution(filter: $f) { playerGames } } }";
        server.data(None, q, json!({ "f": filter }))["caverna"]["scoreDistribution"]["playerGames"].as_i64().unwrap()
    };
    // Simulated games are left out by default when games played by people pass the filter.
    assert_eq!(player_games(json!({})), 2);
    assert_eq!(player_games(json!({ "includeSimulated": true })), 6);
    assert_eq!(player_games(json!({ "excludeSource": "simulate" })), 2);
    assert_eq!(player_games(json!({ "source": "simulate" })), 4);
    assert_eq!(player_games(json!({ "uploader": "club" })), 2);
    let effects = |source: Value, include: bool| -> i64 {
        let q = "query($s: String, $i: Boolean!) { caverna { strategyEffects(excludeSource: $s, includeSimulated: $i) { used { n } notUsed { n } } } }";
        let v = server.data(None, q, json!({ "s": source, "i": include }));
        let e = &v["caverna"]["strategyEffects"][0];
        e["used"]["n"].as_i64().unwrap() + e["notUsed"]["n"].as_i64().unwrap()
    };
    // By default the simulated games are left out, as in every statistic.
    assert_eq!((effects(Value::Null, false), effects(Value::Null, true), effects(json!("simulate"), false)), (2, 6, 2));

    // The web app's lists, statistics pages and downloads take the same filters.
    let (status, stats) = server.get("/stats/furnishings?exclude_source=simulate&uploader=club");
    assert_eq!(status, 200);
    assert!(stats.contains("name=\"exclude_source\" value=\"simulate\""), "the filter is kept in the form");
    assert!(stats.contains("Mean score difference (score points, 95%)"));
    let (status, page) = server.get("/games?exclude_source=simulate");
    assert_eq!(status, 200);
    assert_eq!(page.matches("href=\"/games/").count(), 1, "one stored game is not simulated");
    let (status, csv) = server.get("/games/export?table=games&format=csv&source=simulate");
    assert_eq!(status, 200);
    assert_eq!(csv.lines().count(), 3, "a header and two simulated games:\n{csv}");
    assert!(csv.lines().next().unwrap().contains("source") && csv.contains("simulate:random"));
}
