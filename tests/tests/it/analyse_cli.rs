//! `chronicle analyse` and the strong bot through the CLI, in-process (docs/analysis.md): a
//! strong seat in a mixed game plays a complete, valid game, the same arguments give the same
//! bytes; an analysis judges every placement with estimates, marks and a summary per player,
//! the same every time; games without analysis, bad budgets and invalid logs are refused.

use serde_json::Value;

/// Runs the CLI in-process with `stdin`; returns (exit code, stdout, stderr).
fn chronicle(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["chronicle".into()];
    argv.extend(args.iter().map(|a| a.into()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = chronicle_api::cli::run(argv, &mut &stdin[..], &mut out, &mut err);
    (code, out, String::from_utf8_lossy(&err).into_owned())
}

/// A 2-player game with a strong seat (budget 2: the test is about the plumbing, the
/// benchmark about strength).
fn strong_game() -> Vec<u8> {
    let args = [
        "simulate",
        "--games",
        "1",
        "--players",
        "2",
        "--seed",
        "3",
        "--bot",
        "strong,mixed",
        "--budget",
        "2",
        "--out",
        "-",
    ];
    let (code, out, err) = chronicle(&args, b"");
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, again, _) = chronicle(&args, b"");
    assert_eq!(out, again, "the same arguments give the same bytes");
    out
}

#[test]
fn a_strong_seat_plays_a_complete_game_named_after_its_bot() {
    let log: Value = serde_json::from_slice(&strong_game()).expect("a log");
    assert_eq!(log["setup"]["players"][0]["name"], "strong 1");
    assert!(log["meta"]["source"].as_str().is_some_and(|s| s.contains("strong")), "{}", log["meta"]);
    let (code, out, _) = chronicle(&["replay", "--summary", "-"], log.to_string().as_bytes());
    let summary: Value = serde_json::from_slice(&out).expect("a summary");
    assert_eq!((code, summary["complete"].as_u64()), (0, Some(1)), "{summary}");
}

/// The first decisions of a game: an analysis of the log's opening (a short log keeps the test
/// quick; a whole game is the same work repeated).
fn opening(entries: usize) -> Vec<u8> {
    let log: Value = serde_json::from_slice(&strong_game()).expect("a log");
    let mut short = log.clone();
    short["entries"] = Value::from(log["entries"].as_array().expect("entries")[..entries].to_vec());
    short.as_object_mut().expect("an object").remove("claimed");
    short.to_string().into_bytes()
}

#[test]
fn an_analysis_judges_every_placement_and_sums_up_each_player() {
    let log = opening(6);
    let args = ["analyse", "--json", "--budget", "3", "--seed", "9", "-"];
    let (code, out, err) = chronicle(&args, &log);
    assert_eq!((code, err.as_str()), (0, ""));
    let a: Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!((a["budget"].as_u64(), a["seed"].as_u64()), (Some(3), Some(9)));
    let moves = a["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 6, "every entry of the opening is a placement");
    for m in moves {
        let (played, best) = (&m["played"], &m["best"]);
        assert!(played["words"].as_str().is_some_and(|w| w.contains("places a dwarf on")), "{m}");
        assert!(best["points"].as_f64().is_some() && best["spread"].as_f64() >= Some(0.0), "{m}");
        assert!(m["lost"].as_f64() >= Some(0.0), "{m}");
        assert!(played["playouts"].as_u64() >= Some(1) && best["playouts"] == played["playouts"], "{m}");
        assert_eq!(m["played_best"].as_bool(), Some(played["words"] == best["words"]), "{m}");
    }
    let players = a["players"].as_array().expect("players");
    let decisions: u64 = players.iter().filter_map(|p| p["moves"].as_u64()).sum();
    assert_eq!((players.len(), decisions), (2, 6));
    assert_eq!(chronicle(&args, &log).1, out, "the same log, budget and seed give the same analysis");

    let (code, text, _) = chronicle(&["analyse", "--budget", "3", "--seed", "9", "-"], &log);
    let text = String::from_utf8_lossy(&text);
    assert_eq!(code, 0);
    assert!(text.contains("Round 1") && text.contains("Seat 1 strong 1:") && text.contains("accuracy"), "{text}");
}

#[test]
fn analysis_refuses_bad_budgets_invalid_logs_and_games_it_does_not_analyse() {
    let log = opening(2);
    let (code, _, err) = chronicle(&["analyse", "--budget", "0", "-"], &log);
    assert!(code == 2 && err.contains("--budget 0"), "{err}");
    let mut broken: Value = serde_json::from_slice(&log).expect("a log");
    broken["entries"][1]["space"] = Value::from("no_such_space");
    let (code, _, err) = chronicle(&["analyse", "--budget", "1", "-"], broken.to_string().as_bytes());
    assert!(code == 2 && err.contains("not legal at entry 1"), "{err}");
    let village = r#"{"format":"village-log/1","setup":{"players":["A","B"]},"entries":[]}"#;
    let (code, _, err) = chronicle(&["analyse", "-"], village.as_bytes());
    assert!(code == 2 && err.contains("not analysed"), "{err}");
    let (code, _, err) = chronicle(
        &[
            "simulate",
            "--games",
            "1",
            "--players",
            "2",
            "--seed",
            "1",
            "--budget",
            "5",
            "--game",
            "village",
            "--out",
            "-",
        ],
        b"",
    );
    assert!(code == 2 && err.contains("no search bot"), "{err}");
}
