//! Two `chronicle serve` processes on one PostgreSQL database, as replicas behind a load
//! balancer: a write to either is seen by the other within 2 s — statistics, ratings,
//! standings, token revocations, and verdicts rewritten by `chronicle reverify`.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

const SUBMIT: &str = "mutation($log: JSON!) { submitGame(log: $log) { game { id } } }";
const STATS: &str =
    "{ caverna { scoreDistribution { playerGames } ratings { key games } furnishingStats { tile built } } }";

/// Polls `probe` on `server` until it returns `want`; the time it took, or a panic after 2 s.
fn within_two_seconds(what: &str, want: &Value, probe: impl Fn() -> Value) -> Duration {
    let start = Instant::now();
    loop {
        let got = probe();
        if got == *want {
            return start.elapsed();
        }
        assert!(start.elapsed() < Duration::from_secs(2), "{what}: still {got} after 2 s, want {want}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn two_servers_on_one_database_answer_alike_within_two_seconds() {
    if !postgres_available() {
        return;
    }
    let db = Database::Pg(PgScratch::create());
    let a = Server::start(&db, &[]);
    let b = Server::start(&db, &[]);
    let token = create_token(&db, "club");

    // A game stored through A: B's statistics and ratings follow.
    a.data(Some(&token), SUBMIT, json!({ "log": log("complete_3p.json") }));
    let on_a = a.data(None, STATS, json!({}));
    assert_eq!(on_a["caverna"]["scoreDistribution"]["playerGames"], 3);
    let took = within_two_seconds("statistics on B", &on_a, || b.data(None, STATS, json!({})));
    eprintln!("B had A's game in {took:?}");
    // And the other way, a batch this time.
    let logs = vec![log("complete_2p.json"), log("complete_4p.json")];
    b.data(Some(&token), "mutation($l: [JSON!]!) { submitGames(logs: $l) { duplicate } }", json!({ "l": logs }));
    let on_b = b.data(None, STATS, json!({}));
    assert_eq!(on_b["caverna"]["scoreDistribution"]["playerGames"], 9);
    within_two_seconds("statistics on A", &on_b, || a.data(None, STATS, json!({})));

    // A tournament made on A, its games added on B: A's standings have them.
    let q = "mutation { createTournament(name: \"Replicas\") { tournament { id } organizerToken } }";
    let created = a.data(Some(&token), q, json!({}))["createTournament"].clone();
    let (id, organizer) = (created["tournament"]["id"].clone(), created["organizerToken"].as_str().unwrap().to_owned());
    let games: Vec<Value> = b.data(None, "{ games { edges { node { id } } } }", json!({}))["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["id"].clone())
        .collect();
    let add = "mutation($t: ID!, $g: [ID!]!) { addGamesToTournament(tournamentId: $t, gameIds: $g) { id } }";
    b.data(Some(&organizer), add, json!({ "t": id, "g": games }));
    let standings = "query($t: ID!) { tournament(id: $t) { standings { player games wins totalScore } } }";
    let on_b = b.data(None, standings, json!({ "t": id }));
    within_two_seconds("standings on A", &on_b, || a.data(None, standings, json!({ "t": id })));

    // A token revoked from the command line is refused by both.
    let list = chronicle().args(["token", "list", "--json", "--database-url", &db.url()]).output().unwrap();
    let first: Value = serde_json::from_str(String::from_utf8(list.stdout).unwrap().lines().next().unwrap()).unwrap();
    let revoked =
        chronicle().args(["token", "revoke", &first["id"].to_string(), "--database-url", &db.url()]).output().unwrap();
    assert!(revoked.status.success());
    for server in [&a, &b] {
        let (_, code) = server.error_code(Some(&token), SUBMIT, json!({ "log": log("complete_solo.json") }));
        assert_eq!(code, "UNAUTHENTICATED");
    }

    // `chronicle reverify` rewrites verdicts in a third process: both read everything again
    // and still agree.
    let out = chronicle().args(["reverify", "--database-url", &db.url()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let on_a = a.data(None, STATS, json!({}));
    within_two_seconds("statistics on B after reverify", &on_a, || b.data(None, STATS, json!({})));
}
