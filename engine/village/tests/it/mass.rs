//! Mass (`docs/rules/village.md` E.1, G.12, H.18, H.19).

use serde_json::json;

use crate::common::*;

fn round1() -> Vec<serde_json::Value> {
    let log = fixture("worked-example-2p-round-1.json");
    log["entries"].as_array().map(|a| a[1..23].to_vec()).unwrap_or_default()
}

fn with_mass(mass: serde_json::Value) -> serde_json::Value {
    let mut e = round1();
    e.push(mass);
    example(e)
}

/// E.1: the worked example's mass — 3 monks and Bo's member drawn, promoted for 1 grain,
/// Bo alone on the track gains 2 PP.
#[test]
fn e1_mass_of_the_worked_example() {
    let s = state_until(&fixture("worked-example-2p-round-1.json"));
    assert_eq!(s["players"][1]["provisional_score"]["rows"]["track_mass"], json!(2));
    assert_eq!(s["players"][1]["grain"], json!(1));
    assert_eq!(s["monks_in_bag"], json!(4));
}

/// G.12.1 – G.12.4: each mass fault has its code.
#[test]
fn g12_mass_faults_table() {
    let cases = [
        (json!({"type": "mass", "draw": ["monk", "monk", "monk"]}), "draw_count"),
        (json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk", "monk"]}), "draw_count"),
        (json!({"type": "mass", "draw": ["monk", "monk", {"player": 0, "gen": 2}, "monk"]}), "draw_not_in_bag"),
        (
            json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"], "buy": [{"player": 1, "gens": [1]}]}),
            "mass_buy",
        ),
        (
            json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
                "promote": [{"player": 1, "moves": [{"gen": 1, "from": 1, "to": 1}]}]}),
            "promote_invalid",
        ),
        (
            json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
                "promote": [{"player": 0, "moves": [{"gen": 1, "from": 1, "to": 2}]}]}),
            "promote_invalid",
        ),
        (
            json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
                "promote": [{"player": 1, "moves": [{"gen": 1, "from": 1, "to": 4}]}]}),
            "cannot_pay",
        ),
    ];
    for (mass, code) in cases {
        assert_invalid(&with_mass(mass.clone()), 23, code);
    }
    let mut e = round1();
    e.pop();
    e.push(json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]}));
    assert_invalid(&example(e), 22, "unexpected_mass");
    let mut e = round1();
    e.push(take(1, "harvest", "green"));
    assert_invalid(&example(e), 23, "expected_mass");
}

/// H.18: "No points. A player needs ≥ 1 member on the track."
#[test]
fn h18_no_majority_with_an_empty_track() {
    let s = state_until(&with_mass(json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]})));
    assert_eq!(s["players"][0]["provisional_score"]["rows"]["track_mass"], json!(0));
    assert_eq!(s["players"][1]["provisional_score"]["rows"]["track_mass"], json!(0));
}

/// E.1 step 1: "Drawn monks go back into the bag **after all the draws** (S l.568: a drawn monk
/// is removed from the draws and cannot be drawn again in this mass)." Changed state: 3 monks
/// in the bag before the worked example's mass, which draws three monks and Bo's member — legal,
/// and the 3 monks are back afterwards; with 2 monks the third monk drawn is not in the bag
/// (it would be, were a drawn monk returned at once).
#[test]
fn e1_drawn_monks_return_after_all_draws() {
    let mass = fixture("worked-example-2p-round-1.json")["entries"][23].clone();
    let before = example(round1());
    for (monks, result) in [(3, Ok(())), (2, Err("draw_not_in_bag".to_owned()))] {
        let mut g = game_at(&before);
        g.monks = monks;
        assert_eq!(play(&mut g, std::slice::from_ref(&mass)), result, "{monks} monks");
        if result.is_ok() {
            assert_eq!(view(&g)["monks_in_bag"], json!(monks));
        }
    }
}
