//! Golden logs (complete games for 2, 3 and 4 players, `RULES.md` C.1) with hand-worked scores,
//! and invalid fixtures, each with a valid twin differing in one entry. Every fixture uses the
//! synthetic component set (synthetic test data, not the printed game).

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

/// F.10: each golden game is complete and scores exactly its `.expect.json` rows.
#[test]
fn golden_games_score_as_worked_out_by_hand() {
    for n in 2..=4 {
        let name = format!("golden-{n}p");
        let log = read(&format!("{name}.json"));
        let expect = json(&format!("{name}.expect.json"));
        assert!(expect["source"].as_str().is_some_and(|s| s.contains("synthetic test data, not the printed game")));
        let r = replay(log.as_bytes());
        assert_eq!(r.status, Status::Complete, "{name}: {:?}", r.error);
        assert!(r.warnings.iter().all(|w| w.code != "W_SCORE_CLAIM"), "{name}: {:?}", r.warnings);
        let v = AboveAndBelow::verdict(&r);
        assert_eq!(v.player_count, Some(n as u8));
        for (seat, (p, want)) in v.players.iter().zip(expect["players"].as_array().into_iter().flatten()).enumerate() {
            let score = p.score.as_ref().expect("score");
            for row in &score.rows {
                assert_eq!(Some(row.points), want[&row.id].as_i64(), "{name} seat {seat} row {}", row.id);
            }
            assert_eq!(Some(score.total), want["total"].as_i64(), "{name} seat {seat} total");
        }
    }
}

/// Every invalid fixture fails at the exact entry with the exact code; its twin is valid and
/// differs from it in that one entry only.
#[test]
fn invalid_fixtures_fail_where_their_valid_twin_does_not() {
    let index = json("invalid.index.json");
    let cases = index["invalid"].as_array().expect("cases");
    assert!(cases.len() >= 8);
    for case in cases {
        let name = case["log"].as_str().expect("log");
        let bad = json(name);
        let twin = json(case["twin"].as_str().expect("twin"));
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
        assert_eq!(replay(twin.to_string().as_bytes()).status, Status::Complete, "twin of {name}");
    }
}
