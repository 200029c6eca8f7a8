//! Every anonymous request has a bounded cost (docs/reliability.md, "Work on stored logs is
//! charged like work on sent ones" and the rows after it), end to end against the real binary:
//! work that starts from a stored game (`replay`, `log`, `ledger`, `alternatives`, the game
//! page) is charged to the request's budget of log bytes before it starts; `/record/next` takes
//! JSON only; `/metrics` has a fixed set of label values and unmatched requests are
//! rate-limited; downloads read stored columns, one at a time per client, and a client that
//! stops reading gives its slot back; HTML pages carry the security headers.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(
    statistics_that_read_every_games_rows_are_refused_over_the_rows_memory_limit,
    aliases_of_a_stored_games_replay_share_the_requests_budget,
    a_stored_games_log_is_its_text_as_uploaded_and_is_charged,
    a_game_page_shows_what_fits_its_budget_and_says_what_does_not,
    a_download_client_that_stops_reading_gives_its_slot_back,
);

/// A complete game of about `bytes` bytes (a long `meta.id`), with `tag` making it distinct.
fn padded(bytes: usize, tag: &str) -> Value {
    let mut v = log("complete_4p.json");
    v["meta"]["id"] = json!(format!("{tag}{}", "x".repeat(bytes)));
    v
}

/// Stores a log with a new token; its id and its size as stored (the bytes `submitGame` keeps).
fn store(db: &Database, server: &Server, log: &Value) -> (String, usize) {
    let token = create_token(db, "uploader");
    let data =
        server.data(Some(&token), "mutation($l: JSON!) { submitGame(log: $l) { game { id } } }", json!({ "l": log }));
    let id = data["submitGame"]["game"]["id"].as_str().expect("id").to_owned();
    (id, serde_json::to_vec(log).expect("JSON").len())
}

/// `n` aliases of `field` in one query over game `$id`.
fn aliases(n: usize, field: &str) -> String {
    let fields: Vec<String> = (0..n).map(|i| format!("a{i}: {field}")).collect();
    format!("query($id: ID!) {{ {} }}", fields.join(" "))
}

/// How many aliases answered, and the codes of the errors.
fn answered(body: &Value, n: usize) -> (usize, Vec<String>) {
    let done = (0..n).filter(|i| !body["data"][format!("a{i}")].is_null()).count();
    let codes = body["errors"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["extensions"]["code"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    (done, codes)
}

/// Issue finding 1: 150 aliases of `replay` over one stored game are refused as too complex
/// (each costs 100), and the 40 that fit the complexity limit share one budget of log bytes:
/// as many as fit answer, the others are `BUDGET_EXCEEDED`.
fn aliases_of_a_stored_games_replay_share_the_requests_budget(db: Database) {
    let server = Server::start(&db, &["--replay-budget", "4000000"]);
    let (id, size) = store(&db, &server, &padded(900_000, "replay"));
    let (status, code) = server.error_code(None, &aliases(150, "replay(gameId: $id) { round }"), json!({ "id": id }));
    assert_eq!((status, code.as_str()), (200, "QUERY_TOO_COMPLEX"));
    let (_, body) = server.graphql(None, &aliases(40, "replay(gameId: $id) { round }"), json!({ "id": id }));
    let (done, codes) = answered(&body, 40);
    assert_eq!(done, 4_000_000 / size, "{size} bytes a replay: {codes:?}");
    assert!(!codes.is_empty() && codes.iter().all(|c| c == "BUDGET_EXCEEDED" || c == "TOO_MANY_ERRORS"), "{codes:?}");
    // The same budget covers the ledger and a stored invalid game's alternatives.
    let (_, body) = server.graphql(None, &aliases(10, "game(id: $id) { ledger }"), json!({ "id": id }));
    assert_eq!(answered(&body, 10).0, 4_000_000 / size);
    let first = body["data"]["a0"]["ledger"].as_array().expect("ledger lines");
    assert!(!first.is_empty() && first[0]["changes"].is_array(), "{first:?}");
}

/// Issue finding 2: a game's `log` is the stored text as uploaded (no tree per alias), and
/// each alias is charged its size.
fn a_stored_games_log_is_its_text_as_uploaded_and_is_charged(db: Database) {
    let server = Server::start(&db, &["--replay-budget", "3000000"]);
    let log = padded(900_000, "log");
    let (id, size) = store(&db, &server, &log);
    let (_, body) = server.graphql(None, &aliases(20, "game(id: $id) { log }"), json!({ "id": id }));
    let (done, codes) = answered(&body, 20);
    assert_eq!(done, 3_000_000 / size, "{codes:?}");
    assert!(codes.iter().all(|c| c == "BUDGET_EXCEEDED" || c == "TOO_MANY_ERRORS"), "{codes:?}");
    let text = body["data"]["a0"]["log"].as_str().expect("the log is a string");
    assert_eq!(text.as_bytes(), serde_json::to_vec(&log).expect("JSON"), "the text as uploaded");
}

/// A page is one request: what fits its budget is drawn, and what does not says why.
fn a_game_page_shows_what_fits_its_budget_and_says_what_does_not(db: Database) {
    let server = Server::start(&db, &["--replay-budget", "1500000"]);
    let (id, _) = store(&db, &server, &padded(900_000, "page"));
    let (status, page) = server.get(&format!("/games/{id}"));
    assert_eq!(status, 200);
    assert!(page.contains("id=\"board\""), "the board is drawn");
    assert!(page.contains("The ledger is not shown: this request has worked on as many log bytes"), "{page}");
}

/// A raw HTTP/1.1 GET on its own connection: the status line and the headers, read; the body
/// left unread.
fn start_download(server: &Server, path: &str) -> (TcpStream, String) {
    let addr = server.base.trim_start_matches("http://");
    let mut conn = TcpStream::connect(addr).expect("connect");
    conn.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    write!(conn, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").expect("send");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if conn.read(&mut byte).expect("read the head") == 0 {
            break;
        }
        head.push(byte[0]);
    }
    (conn, String::from_utf8_lossy(&head).into_owned())
}

/// Issue finding 5: a client that starts a large download and stops reading holds its slot
/// only for `--download-idle`; meanwhile it cannot start a second download (one per client),
/// and afterwards the slots are free again.
fn a_download_client_that_stops_reading_gives_its_slot_back(db: Database) {
    let server = Server::start(&db, &["--download-idle", "1"]);
    let token = create_token(&db, "names");
    // 24 games whose players have 200,000-character names: a 19 MB table of player-games,
    // far more than the connection's buffers hold.
    for batch in 0..3 {
        let logs: Vec<Value> = (0..8)
            .map(|g| {
                let mut v = log("complete_4p.json");
                for (p, player) in v["setup"]["players"].as_array_mut().expect("players").iter_mut().enumerate() {
                    player["name"] = json!(format!("{batch}-{g}-{p}-{}", "n".repeat(200_000)));
                }
                v
            })
            .collect();
        server.data(
            Some(&token),
            "mutation($l: [JSON!]!) { submitGames(logs: $l) { duplicate } }",
            json!({ "l": logs }),
        );
    }
    let (stalled, head) = start_download(&server, "/games/export?table=player-games");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (_, second) = start_download(&server, "/games/export?table=games");
    assert!(second.starts_with("HTTP/1.1 503"), "one download at a time per client: {second}");
    // Once the stalled download has been cut (a second after its table went out, which takes a
    // few seconds to make in a debug build), the client may download again.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let csv = loop {
        let (status, text) = server.get("/games/export?table=games");
        if status == 200 {
            break text;
        }
        assert!(status == 503 && text.contains("You have 1 download open"), "{status}: {text}");
        assert!(std::time::Instant::now() < deadline, "the stalled download still holds the client's slot");
        std::thread::sleep(Duration::from_millis(250));
    };
    assert_eq!(csv.lines().count(), 25, "a header and 24 games");
    drop(stalled);
}

/// Issue finding 3's last part: the recorder takes JSON only, like `/graphql`.
#[test]
fn the_recorder_takes_json_bodies_only() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let body = serde_json::to_vec(&json!({ "log": log("complete_2p.json") })).expect("JSON");
    for (content_type, status) in
        [("text/plain", 415), ("application/x-www-form-urlencoded", 415), ("application/json", 200)]
    {
        let (answered, text) = server.post_as("/record/next", content_type, &body);
        assert_eq!(answered, status, "{content_type}");
        if status == 415 {
            assert!(text.contains("UNSUPPORTED_MEDIA_TYPE"), "{text}");
        }
    }
}

/// A request with any method on its own connection: the status code.
fn raw_status(server: &Server, method: &str, path: &str) -> u16 {
    let addr = server.base.trim_start_matches("http://");
    let mut conn = TcpStream::connect(addr).expect("connect");
    conn.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    write!(conn, "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").expect("send");
    let mut text = String::new();
    let _ = conn.read_to_string(&mut text);
    text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// Issue finding 4: operation names and methods that callers make up are counted as `other`,
/// so `/metrics` stays small whatever is sent; unmatched requests are rate-limited.
#[test]
fn metrics_labels_come_from_fixed_sets_and_unmatched_requests_are_rate_limited() {
    let db = Database::sqlite();
    let server = Server::start(&db, &["--anonymous-rate-limit", "400"]);
    for i in 0..150 {
        let body =
            json!({ "query": format!("query Op{i} {{ gameKinds {{ id }} }}"), "operationName": format!("Op{i}") });
        let (status, _) = server.post_raw(None, serde_json::to_vec(&body).expect("JSON"));
        assert_eq!(status, 200);
        assert_eq!(raw_status(&server, &format!("M{i}"), "/graphql"), 404);
    }
    let (status, metrics) = server.get("/metrics");
    assert_eq!(status, 200);
    assert!(!metrics.contains("Op1") && !metrics.contains("\"M1"), "callers' names are no label values");
    assert!(
        metrics.contains("chronicle_graphql_operations_total{operation=\"other\",outcome=\"ok\"} 150"),
        "{metrics}"
    );
    assert!(metrics.contains("route=\"/graphql\",method=\"other\",status=\"404\"} 150"), "{metrics}");
    // The limit is 400 a minute: the unmatched requests use it up like any other.
    let statuses: Vec<u16> = (0..150).map(|i| raw_status(&server, &format!("X{i}"), "/nowhere")).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
}

/// Issue finding 6: every HTML page forbids inline scripts and styles, framing, sniffing and
/// cross-site referrers; the query console keeps its own policy, also without framing.
#[test]
fn html_responses_carry_the_security_headers() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    for path in ["/", "/games", "/stats", "/record", "/tournaments", "/graphiql", "/games/999"] {
        let resp = server.agent.get(format!("{}{path}", server.base)).call().expect("GET");
        let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        let policy = header("content-security-policy");
        assert!(policy.contains("frame-ancestors 'none'"), "{path}: {policy}");
        if path != "/graphiql" {
            assert!(!policy.contains("unsafe-inline") && policy.contains("script-src 'self'"), "{path}: {policy}");
        }
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("referrer-policy"), "same-origin", "{path}");
    }
    for path in ["/games/999", "/stats", "/"] {
        let (_, page) = server.get(path);
        assert!(!page.contains(" style=") && !page.contains("<style") && !page.contains("<script>"), "{path}");
    }
}

/// Issue finding 3: a Village travel map longer than its documented bound (2,000 cities,
/// docs/reliability.md "Bounds on declared data") is refused at setup, through `verifyLog`,
/// before any path is read; a 120,000-city chain used to hold the only replay slot for 38 s
/// (RULES.md D.6).
#[test]
fn a_village_travel_map_over_its_bound_is_refused_at_setup() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let mut v = engine_log(VILLAGE);
    let travel = &mut v["setup"]["components"]["travel"];
    let mut previous = "north".to_owned();
    for i in 0..3000 {
        let id = format!("c{i}");
        travel["cities"][id.as_str()] = json!({ "reward": "coin" });
        let path = json!({ "between": [previous, id], "cubes": { "brown": 1 } });
        travel["paths"].as_array_mut().expect("paths").push(path);
        previous = id;
    }
    let q = "query($l: JSON!) { verifyLog(log: $l) { status error { code message } } }";
    let verdict = server.data(None, q, json!({ "l": v }))["verifyLog"].clone();
    assert_eq!(verdict["status"], "INVALID", "{verdict}");
    assert_eq!(verdict["error"]["code"], "log_too_large", "{verdict}");
    let message = verdict["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("`travel.cities` declares 3007; at most 2000"), "{message}");
}

/// The read of every stored game's rows (filtered strategy effects, questions) is estimated
/// before it starts (`admission::ROWS_BYTES_PER_GAME` a game) and refused as
/// `BUDGET_EXCEEDED` over `--rows-memory-mib`, with a message that says what is not limited;
/// answers from the stored tallies and models go on, and a server with room answers the same
/// questions (docs/reliability.md, "Every game's rows").
fn statistics_that_read_every_games_rows_are_refused_over_the_rows_memory_limit(db: Database) {
    let token = create_token(&db, "uploader");
    let tight = Server::start(&db, &["--rows-memory-mib", "0"]);
    for name in ["complete_3p.json", "complete_4p.json"] {
        tight.data(
            Some(&token),
            "mutation($l: JSON!) { submitGame(log: $l) { game { id } } }",
            json!({ "l": log(name) }),
        );
    }
    let rows = [
        "{ questions(game: \"caverna\") { playerGames } }",
        "{ caverna { strategyEffects(minRating: 0) { strategy } } }",
    ];
    for query in rows {
        let (status, body) = tight.graphql(None, query, json!({}));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["errors"][0]["extensions"]["code"], "BUDGET_EXCEEDED", "{query}: {body}");
        let message = body["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(message.contains("--rows-memory-mib") && message.contains("2 games"), "{message}");
    }
    let (status, page) = tight.get("/questions");
    assert_eq!(status, 503, "{page}");
    assert!(page.contains("Too much for this server") && page.contains("2 games"), "the page says why: {page}");
    let tallied = tight.data(None, "{ caverna { scoreDistribution { playerGames } ratings { key } } }", json!({}));
    assert_eq!(tallied["caverna"]["scoreDistribution"]["playerGames"], 7, "the tallies count both games: {tallied}");
    assert!(tallied["caverna"]["ratings"].as_array().is_some_and(|r| !r.is_empty()), "the stored model: {tallied}");
    drop(tight);
    let roomy = Server::start(&db, &[]);
    for query in rows {
        let (status, body) = roomy.graphql(None, query, json!({}));
        assert!(status == 200 && body["errors"].is_null(), "{query}: {body}");
    }
}
