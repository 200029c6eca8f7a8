//! `chronicle export` round trips: the golden logs imported into a SQLite store, every table
//! written as CSV, Parquet and NDJSON by the real binary, read back with polars' own readers
//! (Parquet as pandas or pyarrow would read it), and compared with the games' expected
//! verdicts: row counts and sums equal.

use std::path::Path;

use polars::prelude::*;
use serde_json::Value;

use crate::common::server::*;
use crate::common::*;

fn read(path: &Path, format: &str) -> DataFrame {
    match format {
        "csv" => CsvReadOptions::default()
            .with_has_header(true)
            .try_into_reader_with_file_path(Some(path.to_path_buf()))
            .and_then(|r| r.finish()),
        "parquet" => std::fs::File::open(path).map_err(PolarsError::from).and_then(|f| ParquetReader::new(f).finish()),
        _ => std::fs::File::open(path)
            .map_err(PolarsError::from)
            .and_then(|f| JsonReader::new(f).with_json_format(JsonFormat::JsonLines).infer_schema_len(None).finish()),
    }
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sum(df: &DataFrame, column: &str) -> i64 {
    let c = df.column(column).unwrap_or_else(|e| panic!("{column}: {e}"));
    c.cast(&DataType::Int64).unwrap().i64().unwrap().sum().unwrap_or(0)
}

#[test]
fn exports_round_trip_in_csv_parquet_and_ndjson() {
    let dir = TempDir::new();
    let db = format!("sqlite://{}", dir.0.join("c.db").display());
    let names = [
        "complete_2p.json",
        "complete_3p.json",
        "complete_4p_furnishing.json",
        "complete_solo.json",
        "invalid_keep.json",
    ];
    let paths: Vec<_> = names.iter().map(|n| fixtures_dir().join(n)).collect();
    let out = chronicle().args(["import", "--database-url", &db]).args(&paths).output().expect("chronicle import");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // What the store holds, from the golden logs' expected verdicts.
    let expects: Vec<Value> = names
        .iter()
        .map(|n| {
            serde_json::from_slice(&std::fs::read(fixtures_dir().join(n.replace(".json", ".expect.json"))).unwrap())
                .unwrap()
        })
        .collect();
    let complete: Vec<&Value> = expects.iter().filter(|e| e["status"] == "complete").collect();
    let seats: usize = complete.iter().map(|e| e["players"].as_array().unwrap().len()).sum();
    let totals: i64 = complete
        .iter()
        .flat_map(|e| e["players"].as_array().unwrap())
        .map(|p| p["score"]["total"].as_i64().unwrap())
        .sum();

    for format in ["csv", "parquet", "ndjson"] {
        let file = |table: &str| dir.0.join(format!("{table}.{format}"));
        for table in ["games", "player-games", "score-rows", "furnishings", "weapons", "placements"] {
            let out = chronicle()
                .args(["export", "--table", table, "--format", format, "--database-url", &db, "--out"])
                .arg(file(table))
                .output()
                .expect("chronicle export");
            assert!(out.status.success(), "{table} {format}: {}", String::from_utf8_lossy(&out.stderr));
        }
        let games = read(&file("games"), format);
        assert_eq!(games.height(), names.len(), "{format}: one row per stored game");
        let player_games = read(&file("player-games"), format);
        let complete_rows = player_games.column("total").unwrap().is_not_null().sum().unwrap_or(0) as usize;
        assert_eq!(complete_rows, seats, "{format}: a total per seat of a complete game");
        assert_eq!(sum(&player_games, "total"), totals, "{format}: the totals add up");
        let rows = read(&file("score-rows"), format);
        assert_eq!(sum(&rows, "points"), totals, "{format}: the score rows add up to the totals");
        for table in ["furnishings", "weapons", "placements"] {
            let t = read(&file(table), format);
            assert!(t.height() > 0, "{format} {table}: rows");
            assert!(t.column("game_id").is_ok() && t.column("seat").is_ok());
        }
    }

    // Filters: only the 3-player game; and a filter that matches nothing still writes the header.
    let three = dir.0.join("three.csv");
    let out = chronicle()
        .args(["export", "--table", "player-games", "--players", "3", "--database-url", &db, "--out"])
        .arg(&three)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(read(&three, "csv").height(), 3);
    let none = chronicle()
        .args([
            "export",
            "--table",
            "games",
            "--player",
            "Nobody",
            "--format",
            "csv",
            "--database-url",
            &db,
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    assert!(none.status.success());
    assert!(String::from_utf8_lossy(&none.stdout).starts_with("game_id,game,variant,status"));
    let bad = chronicle()
        .args(["export", "--table", "games", "--status", "nope", "--database-url", &db, "--out", "-"])
        .output()
        .unwrap();
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("no status `nope`"));
}

/// The same tables as downloads from the games list (`GET /games/export`, the list's filters):
/// CSV and Parquet read back with polars; a bad table or format is a 400 page.
#[test]
fn games_list_downloads_the_filtered_games_as_a_table() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "downloads");
    let q = "mutation($l: [JSON!]!) { submitGames(logs: $l) { duplicate } }";
    let logs: Vec<Value> = ["complete_2p.json", "complete_3p.json"].iter().map(|n| log(n)).collect();
    server.data(Some(&token), q, serde_json::json!({ "l": logs }));
    let (status, list) = server.get("/games");
    assert_eq!(status, 200);
    assert!(list.contains("action=\"/games/export\""), "the list offers the download");
    let (status, csv) = server.get("/games/export?table=player-games&format=csv&players=3");
    assert_eq!(status, 200);
    let df = CsvReadOptions::default()
        .with_has_header(true)
        .into_reader_with_file_handle(std::io::Cursor::new(csv.into_bytes()))
        .finish()
        .unwrap();
    assert_eq!(df.height(), 3, "the 3-player game's seats only");
    let mut resp = ureq::get(&format!("{}/games/export?table=score-rows&format=parquet", server.base)).call().unwrap();
    assert!(resp
        .headers()
        .get("content-disposition")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("chronicle-score-rows.parquet"));
    let bytes = resp.body_mut().read_to_vec().unwrap();
    let rows = ParquetReader::new(std::io::Cursor::new(bytes)).finish().unwrap();
    let totals: i64 = ["complete_2p.expect.json", "complete_3p.expect.json"]
        .iter()
        .map(|n| serde_json::from_slice::<Value>(&std::fs::read(fixtures_dir().join(n)).unwrap()).unwrap())
        .flat_map(|e| {
            e["players"].as_array().unwrap().iter().map(|p| p["score"]["total"].as_i64().unwrap()).collect::<Vec<_>>()
        })
        .sum();
    assert_eq!(sum(&rows, "points"), totals, "the score rows add up to both games' totals");
    assert_eq!(server.get("/games/export?table=nope").0, 400);
    assert_eq!(server.get("/games/export?format=xlsx").0, 400);
}

/// A download larger than one page is streamed page by page and is still one table: 250
/// simulated games (three pages of 100) as CSV have one header and every seat once, and as
/// NDJSON one object per seat; the response is chunked (no Content-Length).
#[test]
fn streamed_downloads_are_one_table_across_pages() {
    let db = Database::sqlite();
    let dir = TempDir::new();
    let out = chronicle()
        .args(["simulate", "--games", "250", "--players", "2", "--seed", "11", "--out"])
        .arg(&dir.0)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = chronicle().args(["import", "--database-url", &db.url()]).arg(&dir.0).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let server = Server::start(&db, &[]);
    let resp = ureq::get(&format!("{}/games/export?table=player-games&format=csv", server.base)).call().unwrap();
    assert!(resp.headers().get("content-length").is_none(), "streamed: {:?}", resp.headers());
    let csv = resp.into_body().read_to_string().unwrap();
    let df = CsvReadOptions::default()
        .with_has_header(true)
        .into_reader_with_file_handle(std::io::Cursor::new(csv.clone().into_bytes()))
        .finish()
        .unwrap();
    assert_eq!(df.height(), 500, "every seat of the 250 games once");
    assert_eq!(csv.matches("game_id,").count(), 1, "one header");
    let ids = df.column("game_id").unwrap().as_materialized_series().n_unique().unwrap();
    assert_eq!(ids, 250);
    let (status, ndjson) = server.get("/games/export?table=player-games&format=ndjson");
    assert_eq!(status, 200);
    assert_eq!(ndjson.lines().filter(|l| serde_json::from_str::<Value>(l).is_ok()).count(), 500);
}

/// The `counters` table: one row per seat and counter of the Village and Above and Below games,
/// the same counts `chronicle replay --json` reports for their logs.
#[test]
fn counters_export_the_other_games_per_player_counts() {
    let dir = TempDir::new();
    let db = format!("sqlite://{}", dir.0.join("c.db").display());
    let engine = |game: &str, name: &str| -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine").join(game).join("tests/fixtures").join(name)
    };
    let logs = [engine("village", "synthetic-3p-complete.json"), engine("above-and-below", "golden-2p.json")];
    let out = chronicle().args(["import", "--database-url", &db]).args(&logs).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = chronicle()
        .args(["export", "--table", "counters", "--format", "csv", "--out", "-", "--database-url", &db])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut want = Vec::new();
    for log in &logs {
        let replay = chronicle().args(["replay", "--json"]).arg(log).output().unwrap();
        let v: Value = serde_json::from_slice(&replay.stdout).unwrap();
        for p in v["players"].as_array().unwrap() {
            // `chronicle replay --json` gives a player's counters by id, in the game's order.
            for (id, value) in p["counters"].as_object().unwrap() {
                want.push((id.clone(), value.as_i64().unwrap()));
            }
        }
    }
    let got: Vec<(String, i64)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2].to_owned(), f[3].parse().unwrap())
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want, "{csv}");
    assert_eq!(csv.lines().next(), Some("game_id,seat,counter,value"));
}
