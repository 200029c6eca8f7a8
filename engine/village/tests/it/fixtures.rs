//! Fixture logs: `docs/log-format-village.md`'s worked example replays as documented, and each invalid
//! fixture fails at its entry with its code while its valid twin (one entry different) passes.

use serde_json::json;

use crate::common::*;

/// The worked example: valid but incomplete, waiting for round 2's populate, with the
/// documented state (LOG-FORMAT "Worked example").
#[test]
fn worked_example_replays_as_documented() {
    let log = fixture("worked-example-2p-round-1.json");
    let r = assert_valid(&log);
    assert_eq!(r.status, chronicle_village::Status::Incomplete);
    assert_eq!(r.waiting_for().as_deref(), Some("the populate of round 2"));
    let s = state(&log);
    assert_eq!(s["first_player"], json!(1));
    let (a, b) = (&s["players"][0], &s["players"][1]);
    assert_eq!((a["time"].clone(), b["time"].clone()), (json!(14), json!(6)));
    assert_eq!((a["grain"].clone(), b["grain"].clone()), (json!(2), json!(1)));
    assert_eq!(a["cubes"], json!({"pink": 3, "brown": 1}));
    assert_eq!(b["cubes"], json!({"green": 2, "brown": 2, "orange": 1}));
    assert_eq!((a["coins"].clone(), b["coins"].clone()), (json!(0), json!(0)));
    assert_eq!((a["goods"]["plough"].clone(), b["goods"]["wagon"].clone()), (json!(1), json!(1)));
    assert_eq!((a["customers"].clone(), b["customers"].clone()), (json!(["c15"]), json!(["c09"])));
    let at = |p: &serde_json::Value, loc: &str| {
        p["members"].as_array().map_or(0, |m| m.iter().filter(|x| x["at"] == loc).count())
    };
    assert_eq!((at(a, "farm"), at(a, "bag"), at(a, "chronicle:crafts")), (3, 1, 1));
    assert_eq!((at(b, "farm"), at(b, "council:1"), at(b, "church:2")), (3, 1, 1));
    assert_eq!(b["provisional_score"]["rows"]["track_mass"], json!(2));
}

/// Every invalid fixture listed in `invalid.json` fails exactly there; its twin is valid.
#[test]
fn invalid_fixtures_and_their_twins() {
    let manifest = fixture("invalid.json");
    let cases = manifest["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 8);
    for case in cases {
        let bad = fixture(case["file"].as_str().unwrap_or_default());
        let twin = fixture(case["twin"].as_str().unwrap_or_default());
        let entry = case["entry"].as_u64().map(|e| e as usize);
        let code = case["code"].as_str().unwrap_or_default();
        let got = error(&bad);
        assert_eq!(got, Some((entry, code.to_owned())), "{}", case["file"]);
        assert!(error(&twin).is_none(), "twin of {}", case["file"]);
        let (be, te) = (
            bad["entries"].as_array().cloned().unwrap_or_default(),
            twin["entries"].as_array().cloned().unwrap_or_default(),
        );
        let differing = be.iter().zip(&te).filter(|(x, y)| x != y).count() + be.len().abs_diff(te.len());
        assert_eq!(differing, 1, "{} differs from its twin in one entry", case["file"]);
    }
}

/// LOG-FORMAT's table "What the engine does with it", row by row: the state right after each
/// entry (index, JSON pointer into the state view, the documented value).
#[test]
fn worked_example_entry_by_entry() {
    let log = fixture("worked-example-2p-round-1.json");
    let rows: [(usize, &str, serde_json::Value); 39] = [
        (0, "/green_bag", json!({"orange": 2, "green": 1, "brown": 1, "pink": 1, "black": 3})),
        (1, "/players/0/time", json!(6)),
        (1, "/players/0/goods/plough", json!(1)),
        (2, "/players/1/grain", json!(3)),
        (3, "/players/0/goods/wagon", json!(1)),
        (3, "/players/0/cubes", json!({})),
        (4, "/players/1/time", json!(1)),
        (4, "/next_first_player_token", json!(1)),
        (4, "/players/1/cubes", json!({})),
        (5, "/players/0/cubes", json!({})),
        (7, "/players/1/customers", json!(["c09"])),
        (7, "/players/1/grain", json!(0)),
        (8, "/players/0/customers", json!(["c15"])),
        (8, "/players/0/time", json!(7)),
        (8, "/players/0/coins", json!(0)),
        (9, "/market/stalls", json!(["c04", "c01", "c12"])),
        (9, "/market/queue", json!(["c18", "c20", "c23", "c07", "c22"])),
        (10, "/players/0/time", json!(12)),
        (10, "/phase", json!("death")),
        (12, "/players/1/cubes/brown", json!(1)),
        (13, "/players/0/members/4/at", json!("farm")),
        (14, "/players/1/members/4/at", json!("farm")),
        (15, "/players/0/cubes/pink", json!(2)),
        (16, "/players/1/grain", json!(2)),
        (17, "/players/0/time", json!(14)),
        (17, "/players/0/grain", json!(2)),
        (20, "/players/1/time", json!(6)),
        (21, "/to_move", json!(1)),
        (21, "/players/0/cubes", json!({"pink": 3, "brown": 1})),
        (22, "/players/1/goods/wagon", json!(1)),
        (22, "/players/1/coins", json!(0)),
        (22, "/phase", json!("mass")),
        (23, "/monks_in_bag", json!(4)),
        (23, "/players/1/grain", json!(1)),
        (23, "/players/1/provisional_score/rows/track_mass", json!(2)),
        (23, "/players/0/provisional_score/rows/track_mass", json!(0)),
        (23, "/round", json!(2)),
        (23, "/phase", json!("populate")),
        (23, "/first_player", json!(1)),
    ];
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    for (i, pointer, want) in rows {
        let mut part = log.clone();
        part["entries"] = json!(entries[..=i].to_vec());
        let s = state_until(&part);
        assert_eq!(s.pointer(pointer), Some(&want), "after entry {i}: {pointer}");
    }
    // Entry 11: Alice's blacksmith dies into the chronicle's crafts category.
    let mut part = log.clone();
    part["entries"] = json!(entries[..=11].to_vec());
    let s = state_until(&part);
    let crafts =
        s["players"][0]["members"].as_array().map(|m| m.iter().filter(|x| x["at"] == "chronicle:crafts").count());
    assert_eq!(crafts, Some(1));
    assert_eq!(s["chronicle_free"]["crafts"], json!(1));
}
