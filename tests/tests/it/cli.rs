//! The `chronicle` command line: exit codes, JSON shape, determinism and hostile input.

use std::io::Write;

use chronicle_caverna::ErrorCode;
use serde_json::{json, Value};

/// Runs the CLI in-process; returns (exit code, stdout, stderr).
fn chronicle(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["chronicle".into()];
    argv.extend(args.iter().map(|a| a.into()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = chronicle_api::cli::run(argv, &mut &stdin[..], &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

fn replay_stdin(log: &[u8]) -> (i32, Value) {
    let (code, out, _) = chronicle(&["replay", "--json", "-"], log);
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    (code, v)
}

fn two_player(entries: Value) -> Vec<u8> {
    json!({ "format": "caverna-log/1",
            "setup": { "players": [{ "name": "Ada" }, { "name": "Bo" }], "seed": 7 },
            "entries": entries })
    .to_string()
    .into_bytes()
}

#[test]
fn replay_json_reports_incomplete_logs_with_exit_0() {
    let (code, v) = replay_stdin(&two_player(json!([{ "type": "place", "player": 0, "space": "supplies" }])));
    assert_eq!(code, 0);
    assert_eq!(v["status"], "incomplete");
    assert_eq!(v["round"], 1);
    assert_eq!(v["file"], "-");
    assert!(v["engine"].is_string());
    assert!(v.get("error").is_none() && v.get("players").is_none());
}

#[test]
fn replay_json_reports_the_first_illegal_entry_with_exit_1() {
    let log = two_player(json!([
        { "type": "place", "player": 0, "space": "supplies" },
        { "type": "place", "player": 1, "space": "supplies" },
    ]));
    let (code, v) = replay_stdin(&log);
    assert_eq!(code, 1);
    assert_eq!(v["status"], "invalid");
    assert_eq!(v["error"]["entry"], 1);
    assert_eq!(v["error"]["player"], 1);
    assert_eq!(v["error"]["code"], "space_occupied");
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(chronicle(&["replay"], b"").0, 2);
    assert_eq!(chronicle(&["frobnicate"], b"").0, 2);
    let (code, _, err) = chronicle(&["replay", "/no/such/file.json"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.json"));
}

#[test]
fn several_logs_one_line_each_and_exit_1_if_any_is_invalid() {
    let dir = std::env::temp_dir().join(format!("chronicle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    let bad = dir.join("bad.json");
    std::fs::write(&good, two_player(json!([]))).unwrap();
    std::fs::write(&bad, b"{ not json").unwrap();
    let (code, out, _) = chronicle(&["replay", "--json", good.to_str().unwrap(), bad.to_str().unwrap()], b"");
    assert_eq!(code, 1);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["status"], "incomplete");
    assert_eq!(lines[1]["error"]["code"], "malformed_json");
    let (_, text, _) = chronicle(&["replay", good.to_str().unwrap()], b"");
    assert!(text.contains("valid, incomplete"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The same log replayed twice gives byte-identical output.
#[test]
fn replay_output_is_byte_identical_across_runs() {
    let log = two_player(json!([
        { "type": "place", "player": 0, "space": "excavation",
          "actions": [{ "do": "twin", "cells": [[1, 3], [1, 4]], "kinds": ["cavern", "tunnel"] }] },
        { "type": "place", "player": 1, "space": "logging" },
    ]));
    let a = chronicle(&["replay", "--json", "-"], &log).1;
    let b = chronicle(&["replay", "--json", "-"], &log).1;
    assert_eq!(a, b);
    let s1 = chronicle(&["state", "--json", "-"], &log).1;
    let s2 = chronicle(&["state", "--json", "-"], &log).1;
    assert_eq!(s1, s2);
}

#[test]
fn state_at_entry_shows_whose_turn_and_the_board() {
    let log = two_player(json!([
        { "type": "place", "player": 0, "space": "excavation",
          "actions": [{ "do": "twin", "cells": [[1, 3], [1, 4]], "kinds": ["cavern", "tunnel"] }] },
        { "type": "place", "player": 1, "space": "logging" },
    ]));
    let (code, out, _) = chronicle(&["state", "--json", "-", "--at", "0"], &log);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["phase"], "work");
    assert_eq!(v["spaces"]["excavation"]["occupant"], 0);
    let cells = v["players"][0]["board"]["cells"].as_array().unwrap();
    assert!(cells.iter().any(|c| c["at"] == json!([1, 4]) && c["tile"] == "tunnel"));
    assert_eq!(v["players"][0]["dwarfs"][0]["space"], "excavation");
    // Beyond the log: a usage error.
    assert_eq!(chronicle(&["state", "--json", "-", "--at", "5"], &log).0, 2);
}

/// No input panics: every hostile document gets a structured error with a stable code.
#[test]
fn hostile_inputs_give_structured_errors() {
    let entry = |e: Value| two_player(json!([e]));
    let big = u64::MAX;
    let cases: Vec<(&str, Vec<u8>, &str, Option<u64>)> = vec![
        ("empty", b"".to_vec(), "malformed_json", None),
        ("not json", b"\xff\xfe{{".to_vec(), "malformed_json", None),
        ("array", b"[]".to_vec(), "malformed", None),
        ("wrong format", br#"{"format":"caverna-log/2","setup":{},"entries":[]}"#.to_vec(), "bad_format", None),
        (
            "unknown top field",
            br#"{"format":"caverna-log/1","setup":{"players":[{"name":"a"}],"seed":1},"entries":[],"x":1}"#.to_vec(),
            "unknown_field",
            None,
        ),
        (
            "no entries",
            br#"{"format":"caverna-log/1","setup":{"players":[{"name":"a"}],"seed":1}}"#.to_vec(),
            "malformed",
            None,
        ),
        (
            "setup wrong type",
            br#"{"format":"caverna-log/1","setup":{"players":"many","seed":1},"entries":[]}"#.to_vec(),
            "malformed",
            None,
        ),
        (
            "eight players",
            json!({"format":"caverna-log/1","setup":{"players":vec![json!({"name":"x"}); 8],"seed":1},"entries":[]})
                .to_string()
                .into_bytes(),
            "setup_player_count",
            None,
        ),
        (
            "seed too big",
            br#"{"format":"caverna-log/1","setup":{"players":[{"name":"a"}],"seed":1e300},"entries":[]}"#.to_vec(),
            "malformed",
            None,
        ),
        ("entry not object", two_player(json!([7])), "malformed", Some(0)),
        ("unknown entry type", entry(json!({"type":"dance","player":0})), "unknown_id", Some(0)),
        ("unknown space", entry(json!({"type":"place","player":0,"space":"mars"})), "unknown_id", Some(0)),
        ("huge player", entry(json!({"type":"place","player":big,"space":"supplies"})), "malformed", Some(0)),
        (
            "player out of range",
            entry(json!({"type":"place","player":9,"space":"supplies"})),
            "unknown_player",
            Some(0),
        ),
        (
            "huge dwarf",
            entry(json!({"type":"place","player":0,"space":"supplies","dwarf":4_000_000_000u64})),
            "dwarf_not_available",
            Some(0),
        ),
        (
            "coordinate off board",
            entry(
                json!({"type":"place","player":0,"space":"excavation","actions":[{"do":"twin","cells":[[99,3],[1,4]],"kinds":["cavern","tunnel"]}]}),
            ),
            "cell_off_board",
            Some(0),
        ),
        (
            "negative huge coordinate",
            entry(
                json!({"type":"place","player":0,"space":"excavation","actions":[{"do":"twin","cells":[[i64::MIN,3],[1,4]],"kinds":["cavern","tunnel"]}]}),
            ),
            "cell_off_board",
            Some(0),
        ),
        (
            "huge convert",
            entry(json!({"type":"free","player":0,"actions":[{"do":"convert","goods":{"gold":4_000_000_000u64}}]})),
            "insufficient_goods",
            Some(0),
        ),
        (
            "convert overflow",
            entry(json!({"type":"free","player":0,"actions":[{"do":"convert","goods":{"gold":big}}]})),
            "malformed",
            Some(0),
        ),
        (
            "huge buy_food",
            entry(json!({"type":"free","player":0,"actions":[{"do":"buy_food","food":u32::MAX}]})),
            "insufficient_goods",
            Some(0),
        ),
        (
            "huge use times",
            entry(json!({"type":"free","player":0,"actions":[{"do":"use","tile":"trader","times":u32::MAX}]})),
            "tile_not_usable",
            Some(0),
        ),
        (
            "unknown tile",
            entry(
                json!({"type":"place","player":0,"space":"housework","actions":[{"do":"furnish","tile":"castle","at":[2,3]}]}),
            ),
            "unknown_id",
            Some(0),
        ),
        (
            "unknown action",
            entry(json!({"type":"place","player":0,"space":"housework","actions":[{"do":"fly"}]})),
            "unknown_id",
            Some(0),
        ),
        ("deep nesting", deep_nesting(100_000), "malformed_json", None),
    ];
    for (name, input, code, entry) in cases {
        let (exit, v) = replay_stdin(&input);
        assert_eq!(exit, 1, "{name}: {v}");
        assert_eq!(v["status"], "invalid", "{name}");
        assert_eq!(v["error"]["code"], code, "{name}: {}", v["error"]["message"]);
        assert_eq!(v["error"]["entry"].as_u64(), entry, "{name}");
    }
}

fn deep_nesting(depth: usize) -> Vec<u8> {
    let mut s = String::from(r#"{"format":"caverna-log/1","setup":{"players":[{"name":"a"}],"seed":1},"entries":"#);
    s.push_str(&"[".repeat(depth));
    s.push_str(&"]".repeat(depth));
    s.push('}');
    s.into_bytes()
}

/// A 10 MB log is read and rejected or replayed without panicking; larger than the limit is
/// `log_too_large`.
#[test]
fn ten_megabyte_logs_are_handled() {
    // 10 MB of legal entries (about 130,000 of them): replayed to the end, still round 1.
    let one = json!({ "type": "free", "player": 0, "actions": [{ "do": "release", "animals": {} }] }).to_string();
    let n = 10 * 1024 * 1024 / (one.len() + 1);
    let mut s = String::from(
        r#"{"format":"caverna-log/1","setup":{"players":[{"name":"a"},{"name":"b"}],"seed":1},"entries":["#,
    );
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&one);
    }
    s.push_str("]}");
    assert!(s.len() >= 10 * 1024 * 1024);
    let (code, v) = replay_stdin(s.as_bytes());
    assert_eq!((code, &v["status"]), (0, &json!("incomplete")), "{v}");
    // 10 MB in one string field: parsed, then rejected at the setup.
    let mut s = String::from(r#"{"format":"caverna-log/1","setup":{"players":[{"name":""#);
    s.push_str(&"x".repeat(10 * 1024 * 1024));
    s.push_str(r#""}],"seed":1},"entries":[{"type":"place","player":0,"space":"nowhere"}]}"#);
    let (_, v) = replay_stdin(s.as_bytes());
    assert_eq!(v["error"]["code"], "unknown_id");
    // Over the byte limit.
    let huge = vec![b' '; chronicle_caverna::replay::MAX_LOG_BYTES + 1];
    let (_, v) = replay_stdin(&huge);
    assert_eq!(v["error"]["code"], "log_too_large");
}

/// Every error code is documented in `docs/errors.md`.
#[test]
fn every_error_code_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/errors.md")).unwrap();
    for code in ErrorCode::ALL {
        assert!(doc.contains(&format!("| `{}` |", code.as_str())), "{} missing from docs/errors.md", code.as_str());
    }
}

#[test]
fn stdout_closed_does_not_panic() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let log = two_player(json!([]));
    let code = chronicle_api::cli::run(
        vec!["chronicle".into(), "replay".into(), "-".into()],
        &mut &log[..],
        &mut Closed,
        &mut Vec::new(),
    );
    assert_eq!(code, 2);
}

/// `replay` takes directories (every `*.json` and `*.ndjson`, by name) and NDJSON files, and
/// `--summary` prints one line of totals.
#[test]
fn replay_directories_ndjson_and_summary() {
    let dir = std::env::temp_dir().join(format!("chronicle-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let incomplete = String::from_utf8(two_player(json!([]))).unwrap();
    let invalid =
        String::from_utf8(two_player(json!([{ "type": "place", "player": 1, "space": "supplies" }]))).unwrap();
    std::fs::write(dir.join("a.json"), &incomplete).unwrap();
    std::fs::write(dir.join("b.ndjson"), format!("{incomplete}\n\n{invalid}\n")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a log").unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, _) = chronicle(&["replay", "--json", d], b"");
    assert_eq!(code, 1);
    let files: Vec<String> =
        out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["file"].as_str().unwrap().to_owned()).collect();
    let b = dir.join("b.ndjson");
    let expected =
        vec![dir.join("a.json").display().to_string(), format!("{}:1", b.display()), format!("{}:3", b.display())];
    assert_eq!(files, expected);
    let (_, out, _) = chronicle(&["replay", "--summary", d], b"");
    assert_eq!(out.trim(), r#"{"logs":3,"complete":0,"incomplete":2,"invalid":1}"#);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--parse-only` reads the notation without replaying: a rule violation passes, a syntax
/// error does not.
#[test]
fn parse_only_checks_notation_only() {
    let rule_violation = two_player(json!([{ "type": "place", "player": 1, "space": "supplies" }]));
    let (code, out, _) = chronicle(&["replay", "--parse-only", "--json", "-"], &rule_violation);
    assert_eq!(code, 0);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["status"], "parsed");
    let syntax = two_player(json!([{ "type": "place", "player": 1, "space": "moon" }]));
    let (code, out, _) = chronicle(&["replay", "--parse-only", "--summary", "-"], &syntax);
    assert_eq!(code, 1);
    assert_eq!(out.trim(), r#"{"logs":1,"parsed":0,"invalid":1}"#);
}

/// `replay --explain`: an invalid log's report lists the legal alternatives to its illegal
/// entry, and each of them, put in its place, replays as legal.
#[test]
fn replay_explain_lists_legal_alternatives_at_the_illegal_entry() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games/invalid_space_occupied.json");
    let (code, out, _) = chronicle(&["replay", "--json", "--explain", path], b"");
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(out.trim()).unwrap();
    let alternatives = report["alternatives"]["entries"].as_array().unwrap();
    assert!(!alternatives.is_empty());
    let mut log: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let at = report["error"]["entry"].as_u64().unwrap() as usize;
    for entry in alternatives {
        log["entries"][at] = entry.clone();
        let (code, v) = replay_stdin(&serde_json::to_vec(&log).unwrap());
        assert_eq!(code, 0, "{entry} offered but {}", v["error"]);
    }
    let (_, text, _) = chronicle(&["replay", "--explain", path], b"");
    assert!(text.contains("legal instead"), "{text}");
    let valid = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games/complete_2p.json");
    let (_, out, _) = chronicle(&["replay", "--json", "--explain", valid], b"");
    assert!(!out.contains("alternatives"), "only invalid logs get alternatives");
}

/// Error messages speak the log format's words: the closest known id for an unknown one, a
/// cell instead of a Rust type, players by name as well as seat, costs against what is held.
#[test]
fn error_messages_name_players_suggest_ids_and_give_the_numbers() {
    let setup = r#""setup": {"players": [{"name": "Ana"}, {"name": "Bo"}], "seed": 1}"#;
    let cases: [(String, &str); 3] = [
        (
            format!(
                r#"{{"format": "caverna-log/1", {setup}, "entries": [{{"type": "place", "player": 0, "space": "ore_minin"}}]}}"#
            ),
            "unknown id `ore_minin`; did you mean `ore_mining`?",
        ),
        (
            format!(
                r#"{{"format": "caverna-log/1", {setup}, "entries": [{{"type": "place", "player": 0, "space": "excavation",
                "actions": [{{"do": "twin", "cells": ["a", [0, 1]], "kinds": ["cavern", "tunnel"]}}]}}]}}"#
            ),
            "expected a cell [row, column]",
        ),
        (
            format!(
                r#"{{"format": "caverna-log/1", {setup}, "entries": [{{"type": "place", "player": 0, "space": "logging"}},
                {{"type": "place", "player": 0, "space": "supplies"}}]}}"#
            ),
            "Bo (seat 2) is to place a dwarf",
        ),
    ];
    for (log, expected) in cases {
        let (_, v) = replay_stdin(log.as_bytes());
        let message = v["error"]["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains(expected), "{message:?} lacks {expected:?}");
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games/invalid_insufficient_goods.json");
    let (_, out, _) = chronicle(&["replay", "--json", path], b"");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["error"]["message"], "dwelling costs 4 wood, 3 stone; you have 3 wood");
    let convert = format!(
        r#"{{"format": "caverna-log/1", {setup}, "entries": [{{"type": "free", "player": 0,
        "actions": [{{"do": "convert", "goods": {{"sheep": 1}}}}]}}]}}"#
    );
    let (_, v) = replay_stdin(convert.as_bytes());
    assert_eq!(v["error"]["message"], "to convert you need 1 sheep; you have 0");
}
