//! Fixture logs: `LOG-FORMAT.md`'s worked example replays as documented, and each invalid
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
