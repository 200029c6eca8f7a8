//! `chronicle simulate` through the CLI, in-process: byte-identical output for the same
//! arguments, one file per game in a directory that `chronicle replay` counts as complete,
//! NDJSON on standard output, solo and seven-player games, usage errors.

use std::path::PathBuf;

use serde_json::Value;

/// Runs the CLI in-process; returns (exit code, stdout, stderr).
fn chronicle(args: &[&str]) -> (i32, Vec<u8>, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["chronicle".into()];
    argv.extend(args.iter().map(|a| a.into()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = chronicle_api::cli::run(argv, &mut &b""[..], &mut out, &mut err);
    (code, out, String::from_utf8_lossy(&err).into_owned())
}

/// A fresh, empty directory for one test (removed by the test when it is done).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chronicle-simulate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// `chronicle replay --summary PATH` as JSON, with its exit code.
fn summary(path: &str) -> (i32, Value) {
    let (code, out, err) = chronicle(&["replay", "--summary", path]);
    let v = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {err}"));
    (code, v)
}

#[test]
fn same_arguments_give_the_same_bytes() {
    let args = ["simulate", "--games", "3", "--players", "2", "--seed", "5", "--out", "-"];
    let (code, first, err) = chronicle(&args);
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, second, _) = chronicle(&args);
    assert_eq!(first, second);
    let (_, other, _) = chronicle(&["simulate", "--games", "3", "--players", "2", "--seed", "6", "--out", "-"]);
    assert_ne!(first, other);
    // Game i does not depend on how many games are asked for.
    let (_, two, _) = chronicle(&["simulate", "--games", "2", "--players", "2", "--seed", "5", "--out", "-"]);
    assert!(first.starts_with(&two));
}

#[test]
fn out_dir_gets_one_complete_log_per_game() {
    let dir = scratch("dir");
    let path = dir.to_string_lossy().into_owned();
    let (code, out, err) = chronicle(&["simulate", "--games", "4", "--players", "3", "--seed", "1", "--out", &path]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.is_empty());
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["game-000001.json", "game-000002.json", "game-000003.json", "game-000004.json"]);
    let (code, v) = summary(&path);
    assert_eq!(code, 0);
    assert_eq!(v, serde_json::json!({ "logs": 4, "complete": 4, "incomplete": 0, "invalid": 0 }));
    // The files hold the same logs as the NDJSON output, one per line.
    let (_, ndjson, _) = chronicle(&["simulate", "--games", "4", "--players", "3", "--seed", "1", "--out", "-"]);
    let first = std::fs::read(dir.join("game-000001.json")).unwrap();
    assert!(ndjson.starts_with(&first));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ndjson_on_stdout_replays_complete_with_claimed_scores() {
    let (code, out, _) = chronicle(&[
        "simulate",
        "--games",
        "3",
        "--players",
        "4",
        "--seed",
        "9",
        "--furnishings",
        "introductory",
        "--out",
        "-",
    ]);
    assert_eq!(code, 0);
    let logs = lines(&out);
    assert_eq!(logs.len(), 3);
    for log in &logs {
        assert_eq!(log["format"], "caverna-log/1");
        assert_eq!(log["setup"]["furnishings"], "introductory");
        assert_eq!(log["setup"]["players"].as_array().map(Vec::len), Some(4));
        assert!(log["setup"]["seed"].is_u64());
        assert_eq!(log["claimed"]["scores"].as_array().map(Vec::len), Some(4));
    }
    let dir = scratch("ndjson");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.ndjson");
    std::fs::write(&file, &out).unwrap();
    let (code, v) = summary(&file.to_string_lossy());
    assert_eq!((code, &v["complete"]), (0, &Value::from(3)));
    // `claimed` equals the computed scores: no mismatch is reported.
    let (_, json_out, _) = chronicle(&["replay", "--json", &file.to_string_lossy()]);
    for line in lines(&json_out) {
        assert_eq!(line["claimed_mismatches"], serde_json::json!([]));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solo_and_seven_players() {
    for (players, bot) in [("1", "mixed"), ("7", "random"), ("1", "weapons"), ("1", "peaceful")] {
        let (code, out, err) =
            chronicle(&["simulate", "--games", "1", "--players", players, "--seed", "3", "--bot", bot, "--out", "-"]);
        assert_eq!((code, err.as_str()), (0, ""), "{players} players, {bot}");
        let log = &lines(&out)[0];
        assert_eq!(log["setup"]["players"].as_array().map(Vec::len), players.parse().ok());
        let r = chronicle_caverna::replay(log.to_string().as_bytes());
        assert_eq!(r.status, chronicle_caverna::Status::Complete, "{players} players, {bot}: {:?}", r.error);
    }
}

#[test]
fn bots_are_named_after_their_seats() {
    let (_, out, _) =
        chronicle(&["simulate", "--games", "1", "--players", "2", "--seed", "4", "--bot", "peaceful", "--out", "-"]);
    let names: Vec<Value> =
        lines(&out)[0]["setup"]["players"].as_array().unwrap().iter().map(|p| p["name"].clone()).collect();
    assert_eq!(names, ["peaceful 1", "peaceful 2"]);
}

#[test]
fn usage_errors_exit_2() {
    for bad in [
        &["simulate", "--games", "1", "--players", "0", "--seed", "1", "--out", "-"][..],
        &["simulate", "--games", "1", "--players", "8", "--seed", "1", "--out", "-"],
        &["simulate", "--games", "1", "--players", "2", "--seed", "1", "--bot", "clever", "--out", "-"],
        &["simulate", "--games", "1", "--players", "2", "--seed", "1"],
        &["simulate", "--games", "-1", "--players", "2", "--seed", "1", "--out", "-"],
    ] {
        let (code, out, err) = chronicle(bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
    // An output directory that cannot be created is an IO error.
    let dir = scratch("blocked");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    std::fs::write(&file, b"x").unwrap();
    let (code, _, err) = chronicle(&[
        "simulate",
        "--games",
        "1",
        "--players",
        "2",
        "--seed",
        "1",
        "--out",
        &file.join("sub").to_string_lossy(),
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("chronicle: "), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    // No games: nothing written, success.
    let (code, out, _) = chronicle(&["simulate", "--games", "0", "--players", "2", "--seed", "1", "--out", "-"]);
    assert_eq!((code, out.len()), (0, 0));
}
