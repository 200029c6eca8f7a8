//! Golden logs (complete games for 2, 3 and 4 players, `docs/rules/above-and-below.md` C.1) with hand-worked scores,
//! and invalid fixtures, each with a valid twin differing in one entry. Every fixture uses the
//! synthetic component set (synthetic test data, not the printed game).

use chronicle_above_and_below::rules::scoring::ROWS;
use chronicle_above_and_below::{replay, AboveAndBelow, Status};
use chronicle_game::GameEngine;
use serde_json::Value;

fn read(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json(name: &str) -> Value {
    serde_json::from_str(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The golden games and their player counts.
const GOLDEN: [(&str, usize); 6] = [
    ("golden-2p", 2),
    ("golden-3p", 3),
    ("golden-4p", 4),
    ("golden-2p-rich", 2),
    ("golden-3p-rich", 3),
    ("golden-4p-rich", 4),
];

/// The hand-worked score table at the end of a `.scores.md` file (from its last
/// `| row | P0 | P1 | … |` header): one line per F.10 row and `total`, as `(row, points per
/// seat)`.
fn hand_worked(name: &str) -> Vec<(String, Vec<i64>)> {
    let text = read(&format!("{name}.scores.md"));
    let rows: Vec<&str> = ROWS.iter().copied().chain(["total"]).collect();
    // The final table starts at the last `| row |` header.
    let start = text.rfind("| row |").unwrap_or_else(|| panic!("{name}.scores.md has no `| row |` table"));
    text[start..]
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
            let (row, points) = cells.split_first()?;
            rows.contains(row).then(|| {
                let points = points.iter().map(|p| p.parse().unwrap_or_else(|_| panic!("{name}: {line}"))).collect();
                ((*row).to_owned(), points)
            })
        })
        .collect()
}

/// The hand-worked winners: the seats of the `Winner: P0 (…)` or `Winners: P0, P2 (…)` line.
fn hand_winners(name: &str) -> Vec<usize> {
    let text = read(&format!("{name}.scores.md"));
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Winner: ").or_else(|| l.strip_prefix("Winners: ")))
        .unwrap_or_else(|| panic!("{name}.scores.md names no winner"));
    let seats = line.split(" (").next().unwrap_or_default();
    seats.split(", ").map(|p| p.trim_start_matches('P').parse().unwrap_or_else(|_| panic!("{name}: {line}"))).collect()
}

/// F.10: each golden game is complete and the engine's score rows equal the numbers worked out
/// by hand in its `.scores.md` (every row of F.10 and the total, for every seat); the log's
/// `claimed` totals are the same hand-worked totals, so no `W_SCORE_CLAIM` is raised.
#[test]
fn golden_games_score_as_worked_out_by_hand() {
    for (name, n) in GOLDEN {
        let log = read(&format!("{name}.json"));
        assert!(log.contains("synthetic test data, not the printed game"), "{name}: the synthetic set");
        let r = replay(log.as_bytes());
        assert_eq!(r.status, Status::Complete, "{name}: {:?}", r.error);
        assert!(r.warnings.is_empty(), "{name}: {:?}", r.warnings);
        let v = AboveAndBelow::verdict(&r);
        assert_eq!(v.player_count, Some(n as u8));
        assert_eq!(r.winners, hand_winners(name), "{name}: winners (F.12)");
        let hand = hand_worked(name);
        assert_eq!(
            hand.iter().map(|(row, _)| row.as_str()).collect::<Vec<_>>(),
            [&ROWS[..], &["total"]].concat(),
            "{name}"
        );
        for (row, points) in &hand {
            assert_eq!(points.len(), n, "{name} {row}: one number per seat");
            let engine: Vec<i64> = v
                .players
                .iter()
                .map(|p| {
                    let s = p.score.as_ref().expect("score");
                    if row == "total" {
                        s.total
                    } else {
                        s.rows.iter().find(|r| r.id == *row).map_or(i64::MIN, |r| r.points)
                    }
                })
                .collect();
            assert_eq!(&engine, points, "{name}: row {row}, engine vs hand");
        }
    }
}

/// Every invalid fixture fails at the exact entry with the exact code; its twin is a complete
/// legal game with the same setup, differing from it in that one entry only. Every
/// `invalid-*.json` of the folder is in the index, so none goes unchecked.
#[test]
fn invalid_fixtures_fail_where_their_valid_twin_does_not() {
    let index = json("invalid.index.json");
    let cases = index["invalid"].as_array().expect("cases");
    let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.starts_with("invalid-") && f.ends_with(".json"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = cases.iter().filter_map(|c| c["log"].as_str().map(str::to_owned)).collect();
    listed.sort();
    assert_eq!(files, listed, "every invalid fixture is indexed with its twin");
    for case in cases {
        let name = case["log"].as_str().expect("log");
        let bad = json(name);
        let twin = json(case["twin"].as_str().expect("twin"));
        assert_eq!(
            (&bad["format"], &bad["setup"]),
            (&twin["format"], &twin["setup"]),
            "{name}: same setup as its twin"
        );
        let at = case["entry"].as_u64().expect("entry") as usize;
        let (be, te) = (bad["entries"].as_array().expect("e"), twin["entries"].as_array().expect("e"));
        assert_eq!(be.len(), te.len(), "{name}");
        let differing: Vec<usize> = (0..be.len()).filter(|i| be[*i] != te[*i]).collect();
        assert_eq!(differing, vec![at], "{name} differs from its twin in exactly one entry");
        let r = replay(bad.to_string().as_bytes());
        let e = r.error.as_ref().unwrap_or_else(|| panic!("{name} is not invalid"));
        assert_eq!(
            (e.entry, e.code.as_str()),
            (Some(at), case["code"].as_str().expect("code")),
            "{name}: {}",
            e.message
        );
        assert!(e.message.contains(&format!("entry {at}")), "the message names the entry: {}", e.message);
        assert_eq!(r.entries_applied, at, "{name}: every entry before it applied");
        assert_eq!(replay(twin.to_string().as_bytes()).status, Status::Complete, "twin of {name}");
    }
}
