//! Existing databases migrate in place (migrations/README.md): a database written by an older
//! build — its schema and its data, dumped by `scripts/make-schema-fixture.sh` into
//! `api/tests/fixtures/schema-e9ba7fc/` with what that build's API answered about it — is
//! loaded, today's `chronicle serve` migrates it when it opens, and today's API must answer the
//! same question with the same verdicts, scores, tournament and statistics. Then
//! `chronicle reverify` changes only what today's engines see differently (the old build filed
//! a Village log under no game; today's Village engine reads it).

use std::io::Read;

use serde_json::{json, Value};
use sqlx::Connection;

use crate::common::server::*;
use crate::common::*;

both_stores!(a_database_of_the_previous_schema_migrates_in_place_with_identical_answers);

const FIXTURE: &str = "schema-e9ba7fc";

fn fixture_file(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(FIXTURE).join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A gzipped SQL dump of the fixture, without psql's meta-commands (`\restrict`, …).
fn dump(name: &str) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(&fixture_file(name)[..]).read_to_string(&mut text).expect("gzip dump");
    text.lines().filter(|l| !l.starts_with('\\')).collect::<Vec<_>>().join("\n")
}

/// Loads the old build's dump into the (empty) database.
fn load(db: &Database) {
    runtime().block_on(async {
        match db {
            Database::Lite(_) => {
                let url = format!("{}?mode=rwc", db.url());
                let mut conn = sqlx::SqliteConnection::connect(&url).await.expect("open SQLite");
                sqlx::raw_sql(&dump("sqlite.sql.gz")).execute(&mut conn).await.expect("load the SQLite dump");
                conn.close().await.expect("close");
            }
            Database::Pg(_) | Database::Url(_) => {
                let mut conn = sqlx::PgConnection::connect(&db.url()).await.expect("connect");
                sqlx::raw_sql(&dump("postgres.sql.gz")).execute(&mut conn).await.expect("load the PostgreSQL dump");
                conn.close().await.expect("close");
            }
        }
    });
}

/// An answer without what a replay by today's engines rewrites apart from the facts: the engine
/// version and the words of error messages (the codes stay).
fn without_engine_words(mut answer: Value) -> Value {
    for edge in answer["data"]["games"]["edges"].as_array_mut().into_iter().flatten() {
        if let Some(node) = edge["node"].as_object_mut() {
            node.remove("engineVersion");
            if let Some(error) = node.get_mut("error").and_then(Value::as_object_mut) {
                error.remove("message");
            }
        }
    }
    answer
}

/// One number from the database (a count).
fn scalar(db: &Database, sql: &str) -> i64 {
    runtime().block_on(async {
        match db {
            Database::Lite(_) => {
                let mut conn = sqlx::SqliteConnection::connect(&db.url()).await.expect("open SQLite");
                sqlx::query_scalar(sql).fetch_one(&mut conn).await.expect(sql)
            }
            Database::Pg(_) | Database::Url(_) => {
                let mut conn = sqlx::PgConnection::connect(&db.url()).await.expect("connect");
                sqlx::query_scalar(sql).fetch_one(&mut conn).await.expect(sql)
            }
        }
    })
}

fn a_database_of_the_previous_schema_migrates_in_place_with_identical_answers(db: Database) {
    load(&db);
    let query = String::from_utf8(fixture_file("query.graphql")).expect("UTF-8");
    let before: Value = serde_json::from_slice(&fixture_file("answer.json")).expect("JSON");
    let games_before = before["data"]["games"]["edges"].as_array().map_or(0, Vec::len);
    assert!(games_before > 80, "the fixture holds the golden and simulated games ({games_before})");

    let server = Server::start(&db, &[]);
    let (status, after) = server.graphql(None, &query, json!({}));
    assert_eq!(status, 200);
    assert_eq!(after, before, "today's API answers about the migrated database as the old build did");

    // The new fields of the migrated games: the game, the variant, the score rows as data.
    let q = "{ games(first: 100) { edges { node { game format variant furnishingSet \
             players { score { total rows { id points } farmAnimalsAndDogs } } } } } }";
    let games = server.data(None, q, json!({}));
    for edge in games["games"]["edges"].as_array().expect("edges") {
        let g = &edge["node"];
        let caverna = g["format"] == "caverna-log/1";
        assert_eq!(g["game"], if caverna { json!("caverna") } else { Value::Null }, "{g}");
        assert_eq!(g["variant"], g["furnishingSet"]);
        for p in g["players"].as_array().expect("players") {
            let Some(rows) = p["score"]["rows"].as_array() else { continue };
            assert_eq!(rows.len(), 10, "the ten rows of the Caverna score pad");
            assert_eq!(rows[0], json!({ "id": "farm_animals_and_dogs", "points": p["score"]["farmAnimalsAndDogs"] }));
            let sum: i64 = rows.iter().filter_map(|r| r["points"].as_i64()).sum();
            assert_eq!(Some(sum), p["score"]["total"].as_i64());
        }
    }
    drop(server);

    // Replaying every stored log with today's engines changes no outcome, and files the
    // Village log (stored as `bad_format` by the old build, which had no Village engine) under
    // Village: its engine refuses the log's empty setup with the same code.
    let out = chronicle().args(["reverify", "--json", "--database-url", &db.url()]).output().expect("reverify");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(
        (report["reverified"].as_u64(), report["changed"].as_u64()),
        (Some(games_before as u64), Some(0)),
        "{report}"
    );
    // The rewrite stores every game in the compact form (a sheet per player, a facts row per
    // Caverna game; docs/scaling.md, "Compact facts"), and the old build's answers stand.
    assert_eq!(scalar(&db, "SELECT COUNT(*) FROM game_players WHERE sheet IS NULL"), 0);
    for old in ["game_score_rows", "game_player_counts", "game_placements", "game_furnishings", "game_weapons"] {
        assert_eq!(scalar(&db, &format!("SELECT COUNT(*) FROM {old}")), 0, "{old} is emptied by the rewrite");
    }
    assert_eq!(
        scalar(&db, "SELECT COUNT(*) FROM game_facts"),
        scalar(&db, "SELECT COUNT(*) FROM games WHERE game = 'caverna'")
    );
    let server = Server::start(&db, &[]);
    let (_, after) = server.graphql(None, &query, json!({}));
    assert_eq!(
        without_engine_words(after),
        without_engine_words(before.clone()),
        "the games read back from their compact form answer as before"
    );
    let q = "{ games(filter: { game: \"village\" }) { edges { node { format status error { code } } } } }";
    let village = server.data(None, q, json!({}));
    assert_eq!(
        village["games"]["edges"],
        json!([{ "node": { "format": "village-log/1", "status": "INVALID", "error": { "code": "bad_format" } } }]),
        "{village}"
    );
}
