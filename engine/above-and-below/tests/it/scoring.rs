//! Scoring (`docs/rules/above-and-below.md` F.10–F.12).

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

/// F.12: equal totals are broken by most coins, then most villagers, then most houses and
/// outposts; each game below ties every earlier criterion and differs in the next one only.
#[test]
fn f12_tie_breaks() {
    // Coins: nothing happens; both total 2 (tied rank (3+0)/2 → 2), player 1 started with 8.
    let r = run(&log(2, passes(2, 0, 7)));
    assert_eq!(r.scores.as_ref().map(|s| (s[0].total, s[1].total)), Some((2, 2)));
    assert_eq!(r.winners, vec![1], "player 1 has 8 + 24 coins, player 0 7 + 24");

    // Villagers: player 0 trains villager_01 (2 coins: 7 → 5), player 1 fails an exploration
    // that costs 3 coins (8 → 5). Totals 2 and 2, coins 29 and 29, villagers 4 and 3.
    let fail = explore(
        1,
        "cave_01",
        1,
        [1, 1],
        json!({"paragraph": 1, "option": 1, "thresholds": [5], "reached": null, "outcome": [{"get": "lose_coins", "n": 3}]}),
    );
    let train = turn(0, json!({"do": "train", "villager": "start_quill", "slot": 0, "recruit": "villager_01"}));
    let mut e = vec![train, fail, pass(0), pass(1), json!({"type": "round_end", "villagers": ["villager_06"]})];
    e.extend(passes(2, 1, 6));
    let l = log(2, e);
    let r = run(&l);
    let st = state(&l);
    assert_eq!(r.scores.as_ref().map(|s| (s[0].total, s[1].total)), Some((2, 2)));
    assert_eq!((player(&st, 0)["coins"].as_u64(), player(&st, 1)["coins"].as_u64()), (Some(29), Some(29)));
    assert_eq!(r.winners, vec![0], "4 villagers against 3");

    // Houses and outposts: player 0 builds house_01 (1 VP, 7 → 5 coins); player 1 explores,
    // gains a fruit and pays 3 (8 → 5), and stores the fruit (1 VP, income still 4). Totals 3
    // and 3, coins 29 and 29, villagers 3 and 3, houses 1 and 0.
    let gain = explore(
        1,
        "cave_01",
        1,
        [4, 3],
        json!({"paragraph": 1, "option": 1, "thresholds": [3], "reached": 3,
               "outcome": [{"get": "good", "good": "fruit", "n": 1}, {"get": "pay", "n": 3}]}),
    );
    let mut e = vec![
        build(0, "house_01", Some("house_05")),
        gain,
        json!({"type": "store", "player": 1, "goods": ["fruit"]}),
        pass(0),
        pass(1),
    ];
    e.extend(passes(2, 1, 6));
    let l = log(2, e);
    let r = run(&l);
    let st = state(&l);
    assert_eq!(r.scores.as_ref().map(|s| (s[0].total, s[1].total)), Some((3, 3)));
    assert_eq!((player(&st, 0)["coins"].as_u64(), player(&st, 1)["coins"].as_u64()), (Some(29), Some(29)));
    assert_eq!(r.winners, vec![0], "1 house against 0");
}

/// G.3: a claimed score that differs is a warning, never an error.
#[test]
fn g3_score_claims_are_warnings() {
    let mut doc: serde_json::Value = serde_json::from_str(&log(2, passes(2, 0, 7))).expect("json");
    doc["claimed"] = json!({"scores": [2, 3]});
    let r = run(&doc.to_string());
    assert_eq!(r.status, chronicle_above_and_below::Status::Complete);
    let claims: Vec<_> = r.warnings.iter().filter(|w| w.code == "W_SCORE_CLAIM").collect();
    assert_eq!(claims.len(), 1);
    let seat = claims[0].player.expect("the seat");
    let total = r.scores.as_ref().expect("scores")[seat].total;
    let claim = [2, 3][seat];
    assert_eq!(claims[0].message, format!("P{seat} (seat {}): claimed {claim}, computed {total}", seat + 1));
}
