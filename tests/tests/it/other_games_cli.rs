//! The `chronicle` command line with Village and Above and Below logs (the engines' synthetic
//! fixtures: component data labelled as synthetic test data, not the printed games): `replay`
//! in text and JSON with the Above and Below trust report, `state`, and `simulate --game`.

use std::path::PathBuf;

use serde_json::Value;

/// Runs the CLI in-process; returns (exit code, stdout, stderr).
fn chronicle(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["chronicle".into()];
    argv.extend(args.iter().map(|a| a.into()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = chronicle_api::cli::run(argv, &mut &stdin[..], &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// A fixture of an engine crate (`engine/<game>/tests/fixtures/<name>`).
fn engine_fixture(game: &str, name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "engine", game, "tests", "fixtures", name].iter().collect();
    path.to_string_lossy().into_owned()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn read_json(path: &str) -> Value {
    json(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

fn totals(report: &Value) -> Vec<i64> {
    report["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["score"]["total"].as_i64().expect("total"))
        .collect()
}

#[test]
fn village_logs_replay_by_their_format() {
    let log = engine_fixture("village", "synthetic-3p-complete.json");
    let expect = read_json(&engine_fixture("village", "synthetic-3p-complete.expect.json"));
    let (code, out, err) = chronicle(&["replay", "--json", &log], b"");
    assert_eq!((code, err.as_str()), (0, ""));
    let v = json(&out);
    assert_eq!((v["game"].as_str(), v["status"].as_str()), (Some("village"), Some("complete")));
    let want: Vec<i64> = expect["scores"].as_array().unwrap().iter().map(|s| s["total"].as_i64().unwrap()).collect();
    assert_eq!(totals(&v), want);
    assert_eq!(v["winners"], expect["winners"]);
    assert_eq!(v["claimed_mismatches"], serde_json::json!([]));
    assert!(v.get("trust").is_none(), "Village's engine checks what it applies: no trust report");

    let (code, text, _) = chronicle(&["replay", &log], b"");
    assert_eq!(code, 0);
    assert!(text.starts_with(&format!("{log}: Village, valid, complete: ")), "{text}");

    // `--parse-only` reads each game's notation with its own engine, through the registry.
    let (code, out, _) = chronicle(&["replay", "--parse-only", &log], b"");
    assert_eq!(code, 0, "{out}");
    let parsed = json(&out);
    assert_eq!(parsed["status"], "parsed");
    assert_eq!(parsed["entries"].as_u64(), read_json(&log)["entries"].as_array().map(|e| e.len() as u64));
}

#[test]
fn an_invalid_village_log_names_its_entry_and_code() {
    let index = read_json(&engine_fixture("village", "invalid.json"));
    let case = &index["cases"][0];
    let (entry, code_id) = (&case["entry"], &case["code"]);
    let Some(file) = case["file"].as_str() else { panic!("invalid.json lists its cases: {index}") };
    let (code, out, _) = chronicle(&["replay", "--json", &engine_fixture("village", file)], b"");
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!((&v["status"], &v["error"]["entry"], &v["error"]["code"]), (&Value::from("invalid"), entry, code_id));
    let (_, explained, _) = chronicle(&["replay", "--explain", &engine_fixture("village", file)], b"");
    assert!(explained.contains("legal instead"), "{explained}");
}

#[test]
fn above_and_below_replays_show_the_trust_report() {
    let log = engine_fixture("above-and-below", "golden-4p.json");

    let (code, out, _) = chronicle(&["replay", "--json", &log], b"");
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!((v["game"].as_str(), v["status"].as_str()), (Some("above-and-below"), Some("complete")));
    // The totals worked by hand in golden-4p.scores.md.
    assert_eq!(totals(&v), vec![8, 0, 5, 3]);
    let trust = &v["trust"];
    assert!(trust["declared"]["catalogue"].as_str().is_some_and(|s| s.starts_with("synthetic test data")));
    assert_eq!(trust["players"].as_array().map(Vec::len), Some(4));
    assert!(trust["players"][0]["verified"]["explorations"].is_u64());
    assert!(trust["players"][0]["trusted"]["encounter_coins"].is_i64());

    let (_, text, _) = chronicle(&["replay", &log], b"");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("Above and Below, valid, complete: "), "{text}");
    assert!(lines[1].contains(
        "entries checked against the rules; declared by the log, not checked: catalogue (synthetic test data"
    ));
    assert_eq!(lines.iter().filter(|l| l.contains(": checked ") && l.contains("; trusted: ")).count(), 4, "{text}");
}

#[test]
fn simulated_above_and_below_games_report_their_trusted_rewards() {
    let (code, out, err) = chronicle(
        &["simulate", "--game", "above-and-below", "--games", "1", "--players", "2", "--seed", "3", "--out", "-"],
        b"",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, report, _) = chronicle(&["replay", "--json", "-"], out.as_bytes());
    assert_eq!(code, 0);
    let players = json(&report)["trust"]["players"].as_array().cloned().unwrap_or_default();
    let explorations: u64 = players.iter().filter_map(|p| p["verified"]["explorations"].as_u64()).sum();
    assert!(explorations > 0, "the bots explore: {report}");
    let (_, text, _) = chronicle(&["replay", "-"], out.as_bytes());
    assert!(text.contains("trusted: encounter"), "{text}");
}

#[test]
fn state_prints_the_engines_view_at_an_entry() {
    for (game, name, players) in
        [("village", "synthetic-2p-complete.json", 2), ("above-and-below", "golden-3p.json", 3)]
    {
        let log = engine_fixture(game, name);
        let (code, out, err) = chronicle(&["state", "--json", "--at", "5", &log], b"");
        assert_eq!((code, err.as_str()), (0, ""), "{game}");
        let state = json(&out);
        assert_eq!(state["players"].as_array().map(Vec::len), Some(players), "{game}");
        assert!(state["round"].as_u64().is_some_and(|r| r >= 1), "{game}");
        let (code, _, err) = chronicle(&["state", "--at", "100000", &log], b"");
        assert_eq!(code, 2, "{game}");
        assert!(err.contains("does not exist"), "{err}");
    }
    let (code, out, _) = chronicle(&["state", "-"], br#"{"format": "village-log/1", "setup": {}}"#);
    assert_eq!(code, 1);
    assert!(out.contains("Village, invalid at the document"), "{out}");
}

#[test]
fn simulate_plays_each_game_with_its_engines_bots() {
    for (game, players) in [("village", "1"), ("village", "5"), ("above-and-below", "4")] {
        let args = ["simulate", "--game", game, "--games", "2", "--players", players, "--seed", "9", "--out", "-"];
        let (code, first, err) = chronicle(&args, b"");
        assert_eq!((code, err.as_str()), (0, ""), "{game}");
        assert_eq!(chronicle(&args, b"").1, first, "{game}: the same arguments give the same bytes");
        let path = std::env::temp_dir().join(format!("chronicle-other-{}-{game}-{players}.ndjson", std::process::id()));
        std::fs::write(&path, &first).expect("write the logs");
        let (code, summary, _) = chronicle(&["replay", "--summary", &path.to_string_lossy()], b"");
        std::fs::remove_file(&path).expect("remove the logs");
        assert_eq!(code, 0);
        assert_eq!(json(&summary), serde_json::json!({ "logs": 2, "complete": 2, "incomplete": 0, "invalid": 0 }));
        let log = json(first.lines().next().unwrap_or(""));
        assert!(log["format"].as_str().is_some_and(|f| f.starts_with(game)), "{game}");
    }
    for refused in [
        &["simulate", "--game", "above-and-below", "--games", "1", "--players", "5", "--seed", "1", "--out", "-"][..],
        &["simulate", "--game", "village", "--games", "1", "--players", "6", "--seed", "1", "--out", "-"],
        &[
            "simulate",
            "--game",
            "village",
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
        &["simulate", "--game", "chess", "--games", "1", "--players", "2", "--seed", "1", "--out", "-"],
    ] {
        let (code, out, err) = chronicle(refused, b"");
        assert_eq!((code, out.as_str()), (2, ""), "{refused:?}");
        assert!(!err.is_empty());
    }
}

#[test]
fn import_stores_village_and_above_and_below_games() {
    let dir = std::env::temp_dir().join(format!("chronicle-other-import-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let url = format!("sqlite://{}", dir.join("games.db").display());
    let logs = [
        engine_fixture("village", "synthetic-2p-complete.json"),
        engine_fixture("above-and-below", "golden-2p.json"),
        engine_fixture("above-and-below", "invalid-lanterns.json"),
    ];
    let mut args = vec!["import", "--json", "--database-url", &url];
    args.extend(logs.iter().map(String::as_str));
    let (code, out, err) = chronicle(&args, b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out), serde_json::json!({ "imported": 2, "duplicates": 0, "invalid": 1, "failed": 0 }));
    let (_, again, _) = chronicle(&args, b"");
    assert_eq!(json(&again)["duplicates"], 3);
    std::fs::remove_dir_all(&dir).expect("remove the scratch directory");
}

/// `chronicle rules --game <id>` prints each game's reference through the registry: the
/// project's page of the rules as that engine implements them.
#[test]
fn rules_print_each_games_reference() {
    for (game, page, heading) in
        [("village", "village.md", "# Village"), ("above-and-below", "above-and-below.md", "# Above and Below")]
    {
        let (code, out, _) = chronicle(&["rules", "--game", game], b"");
        assert_eq!(code, 0, "{game}");
        let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "docs", "rules", page].iter().collect();
        let doc = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(out, doc, "{game}: the printed reference is docs/rules/{page}");
        assert!(out.starts_with(heading), "{game}");
    }
    let (code, _, err) = chronicle(&["rules", "--game", "chess"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("no game `chess`"), "{err}");
}
