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

/// The hot standby's base URL (`scripts/pg-standby.sh` makes one at 127.0.0.1:5433), when the
/// test may run: a loud skip without one, a failure under CI.
fn standby_base_url() -> Option<String> {
    match std::env::var("CHRONICLE_TEST_STANDBY_URL").ok().filter(|u| !u.is_empty()) {
        Some(url) => Some(url),
        None if std::env::var_os("CI").is_some() => {
            panic!("CHRONICLE_TEST_STANDBY_URL is not set and CI is set: the hot standby test must run")
        }
        None => {
            eprintln!(
                "\n*** SKIPPING the hot standby test: set CHRONICLE_TEST_STANDBY_URL (scripts/pg-standby.sh) ***\n"
            );
            None
        }
    }
}

/// Waits until the standby has replayed the scratch database with every migration the primary
/// applied.
fn wait_for_replication(primary: &str, standby: &str) {
    use sqlx::Connection;
    let count = |url: String| async move {
        let mut c = sqlx::PgConnection::connect(&url).await.ok()?;
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM _sqlx_migrations").fetch_one(&mut c).await.ok()
    };
    let want = runtime().block_on(count(primary.to_owned())).expect("the primary's migrations");
    let start = Instant::now();
    while runtime().block_on(count(standby.to_owned())) != Some(want) {
        assert!(start.elapsed() < Duration::from_secs(30), "the standby did not replay the scratch database");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A server reading from a PostgreSQL hot standby (streaming replication; docs/scaling.md)
/// answers games, pages and statistics as a server on the primary does within 2 s of a write —
/// through the primary's server, and through `chronicle import` and `chronicle reverify` in
/// processes of their own — and refuses writes with `READ_ONLY_REPLICA`, storing nothing.
#[test]
fn a_server_on_a_hot_standby_answers_as_the_primary_and_refuses_writes() {
    if !postgres_available() {
        return;
    }
    let Some(standby_base) = standby_base_url() else { return };
    let db = Database::Pg(PgScratch::create());
    let primary = Server::start(&db, &[]);
    let name = db.url().rsplit('/').next().unwrap_or_default().to_owned();
    let standby_db = Database::Url(with_database(&standby_base, &name));
    wait_for_replication(&db.url(), &standby_db.url());
    let replica = Server::start(&standby_db, &[]);
    let token = create_token(&db, "club");

    // A game stored through the primary's server: the replica's statistics, ratings, games and
    // game page follow.
    let id = primary.data(Some(&token), SUBMIT, json!({ "log": log("complete_3p.json") }))["submitGame"]["game"]["id"]
        .clone();
    let on_primary = primary.data(None, STATS, json!({}));
    assert_eq!(on_primary["caverna"]["scoreDistribution"]["playerGames"], 3);
    let took = within_two_seconds("statistics on the standby", &on_primary, || replica.data(None, STATS, json!({})));
    eprintln!("the standby's server had the game in {took:?}");
    let games = "{ games { edges { node { id players { name score { total } } } } } }";
    assert_eq!(replica.data(None, games, json!({})), primary.data(None, games, json!({})));
    let page = format!("/games/{}", id.as_str().unwrap_or_default());
    let (status, html) = replica.get(&page);
    assert_eq!(status, 200, "{html}");
    assert_eq!(html, primary.get(&page).1, "the game page reads the same on both");

    // Games imported by another process, then verdicts rewritten by another: both followed.
    crate::server::import_simulated(&db, "6", "4", "21");
    // (Simulated games count here: by default they are left out beside games played by people.)
    let all = "{ caverna { scoreDistribution(filter: { includeSimulated: true }) { playerGames mean } ratings { key games } } }";
    let count = |s: &Server| s.data(None, all, json!({}))["caverna"]["scoreDistribution"]["playerGames"].clone();
    within_two_seconds("imported games on the primary", &json!(27), || count(&primary));
    let on_primary = primary.data(None, all, json!({}));
    within_two_seconds("imported games on the standby", &on_primary, || replica.data(None, all, json!({})));
    let out = chronicle().args(["reverify", "--database-url", &db.url()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    within_two_seconds("statistics after reverify on the standby", &on_primary, || replica.data(None, all, json!({})));

    // The replica says what it is: `/readyz` names it a standby, and its upload page says it
    // stores nothing (its store button disabled) while the primary's does not.
    let (_, ready) = replica.get("/readyz");
    assert!(ready.contains("\"standby\":true"), "{ready}");
    assert!(!primary.get("/readyz").1.contains("standby"));
    let (_, home) = replica.get("/");
    assert!(home.contains("read-only copy of the database") && home.contains("disabled"), "{home}");
    assert!(!primary.get("/").1.contains("read-only copy"));

    // A write sent to the replica is refused in words that say where to send it; nothing is
    // stored.
    let (_, body) = replica.graphql(Some(&token), SUBMIT, json!({ "log": log("complete_2p.json") }));
    let error = &body["errors"][0];
    assert_eq!(error["extensions"]["code"], "READ_ONLY_REPLICA", "{body}");
    assert!(error["message"].as_str().unwrap_or_default().contains("send writes to the primary"), "{body}");
    let count = "{ games { edges { node { id } } } }";
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(primary.data(None, count, json!({}))["games"]["edges"].as_array().map(Vec::len), Some(7));
    drop(replica);
}
