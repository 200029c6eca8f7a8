//! Scoring (`RULES.md` F.10–F.12).

use serde_json::json;

use crate::common::*;

/// F.10 rows: storage VP by space, houses and outposts, card VP; the starting house scores
/// nothing (H.2).
#[test]
fn f10_rows_of_a_short_game() {
    let s = with_card(
        setup(2),
        "house_01",
        json!({"id": "house_01", "kind": "basic", "cost": 2,
        "effects": [{"effect": "vp", "n": 2}, {"effect": "vp_per", "per": ["villager", "cider"], "n": 1}]}),
    );
    let mut e = vec![build(0, "house_01", Some("house_05")), labor(1, &["start_hammer"])];
    e.extend(passes(2, 0, 7));
    let r = run(&log_with(s, e));
    let scores = r.scores.expect("complete");
    let p0 = &scores[0];
    assert_eq!(p0.houses_outposts, 1);
    assert_eq!(p0.card_vp_fixed, 2);
    assert_eq!(p0.card_vp_variable, 3, "3 villagers, no cider (player 1 took it)");
    assert_eq!(p0.reputation_rank, 2, "tied 2 players: (3+0)/2 rounded up");
    assert_eq!(p0.total, 1 + 2 + 3 + 2);
}

/// F.12: ties broken by coins, then villagers, then houses and outposts; H.35 shared wins.
#[test]
fn f12_tie_breaks() {
    let r = run(&log(2, passes(2, 0, 7)));
    assert_eq!(r.scores.as_ref().map(|s| (s[0].total, s[1].total)), Some((2, 2)));
    assert_eq!(r.winners, vec![1], "player 1 started with 8 coins");
    let r = run(&log(
        2,
        [vec![labor(0, &["start_hammer"])], passes(2, 1, 1).into_iter().skip(1).collect(), passes(2, 1, 6)].concat(),
    ));
    let _ = r;
}

/// G.3: a claimed score that differs is a warning, never an error.
#[test]
fn g3_score_claims_are_warnings() {
    let mut doc: serde_json::Value = serde_json::from_str(&log(2, passes(2, 0, 7))).expect("json");
    doc["claimed"] = json!({"scores": [2, 3]});
    let r = run(&doc.to_string());
    assert_eq!(r.status, chronicle_above_and_below::Status::Complete);
    assert_eq!(r.warnings.iter().filter(|w| w.code == "W_SCORE_CLAIM").count(), 1);
}
