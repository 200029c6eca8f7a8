//! H.36 – H.39 and G.5 (what the trust report counts), one test per decision.

use chronicle_above_and_below::trust;
use serde_json::{json, Value};

use super::*;

/// An explore by player 0 with a party, rolls and step of the test's choosing.
fn explore_with(party: &[&str], rolls: Value, step: Value, extra: Value) -> Value {
    let mut a = json!({"do": "explore", "party": party, "cave": "cave_01", "die": 1, "rolls": rolls, "step": step});
    if let (Some(a), Some(extra)) = (a.as_object_mut(), extra.as_object()) {
        a.extend(extra.clone());
    }
    turn(0, a)
}

fn two_rolls(a: u8, b: u8) -> Value {
    json!([{"villager": "start_explorer", "die": a}, {"villager": "start_quill", "die": b}])
}

/// H.36 (One entry failing two checks). docs/rules/above-and-below.md decides: "The code is the first failing check
/// in G.1's table order, with two named exceptions: a `turn` or `pass` by a player who has
/// passed is `E_PASSED` (not `E_NOT_YOUR_TURN` …); a bonus whose condition cannot hold (a
/// `per_skill` bonus with no villager of that skill in the party) is `E_BONUS`, not
/// `E_LANTERNS`."
///
/// Shown here: each row's entry fails two checks (explore of cave_01, whose table gives
/// paragraph 1 for die 1); the code is the one the table lists first, or the named exception.
#[test]
fn h36_first_failing_check_in_table_order() {
    let party = ["start_explorer", "start_quill"];
    let ok_step = step(json!([2]), json!(2), json!([]));
    let rows: Vec<(&str, Vec<Value>, &str)> = vec![
        // Exception 1: passed and not their turn.
        ("passed, out of turn", vec![pass(0), labor(0, &["start_hammer"])], "E_PASSED"),
        // Exception 2: an impossible per_skill bonus and `reached` above the total.
        (
            "impossible bonus, reached too high",
            vec![explore_with(
                &party,
                two_rolls(1, 1),
                json!({"paragraph": 1, "option": 1, "thresholds": [9], "reached": 9, "outcome": [],
                       "bonus": [{"kind": "per_skill", "skill": "hammer", "n": 1}]}),
                json!({}),
            )],
            "E_BONUS",
        ),
        // D.10 before E.1: a cat die for a villager that is no acting cat, and a party of one.
        (
            "cat roll, party size",
            vec![explore_with(
                &["start_explorer"],
                json!([{"villager": "start_explorer", "die": 4}]),
                ok_step.clone(),
                json!({"cat_rolls": [{"villager": "start_hammer", "die": 4}]}),
            )],
            "E_CAT_ROLL",
        ),
        // E.2 before E.4: the wrong first paragraph and one lantern die missing.
        (
            "paragraph, rolls",
            vec![explore_with(
                &party,
                json!([{"villager": "start_explorer", "die": 4}]),
                json!({"paragraph": 2, "option": 1, "thresholds": [2], "reached": 2, "outcome": []}),
                json!({}),
            )],
            "E_PARAGRAPH",
        ),
        // E.2 before E.5: the wrong first paragraph and a reroll without any allowance.
        (
            "paragraph, reroll",
            vec![explore_with(
                &party,
                two_rolls(4, 4),
                json!({"paragraph": 2, "option": 1, "thresholds": [2], "reached": 2, "outcome": []}),
                json!({"rerolls": [{"villager": "start_quill", "die": 6}]}),
            )],
            "E_PARAGRAPH",
        ),
        // E.6 before E.7: an effort by a villager not in the party and an impossible bonus.
        (
            "effort, bonus",
            vec![explore_with(
                &party,
                two_rolls(4, 4),
                json!({"paragraph": 1, "option": 1, "thresholds": [2], "reached": 2, "outcome": [],
                       "efforts": ["start_hammer"], "bonus": [{"kind": "per_skill", "skill": "hammer", "n": 1}]}),
                json!({}),
            )],
            "E_EFFORT",
        ),
        // E.8: `reached` above the total is checked first, before thresholds out of order.
        (
            "lanterns, thresholds",
            vec![explore_with(
                &party,
                two_rolls(1, 1),
                json!({"paragraph": 1, "option": 1, "thresholds": [5, 3], "reached": 9, "outcome": []}),
                json!({}),
            )],
            "E_LANTERNS",
        ),
    ];
    for (what, entries, code) in rows {
        let at = Some(entries.len() - 1);
        let r = run(&log(2, entries));
        let got = r.error.as_ref().map(|e| (e.entry, e.code.as_str().to_owned()));
        assert_eq!(got, Some((at, code.to_owned())), "{what}");
    }
    // The well-formed explore of the rows is legal.
    assert_ok(&log(2, vec![explore_with(&party, two_rolls(4, 4), ok_step, json!({}))]));
}

/// H.37 (Reputation from encounters at the track's limits). docs/rules/above-and-below.md decides: "The trust
/// report's net reputation is what was applied after clamping, not what the log declared."
///
/// Shown here: an encounter declaring +40 reputation moves the marker to the track's end (7 on
/// the synthetic board); the report counts the steps applied, not 40; a −9 penalty likewise
/// counts what was taken before the other end (−2).
#[test]
fn h37_trust_reports_clamped_reputation() {
    for (dice, thresholds, reached, n) in [([4, 3], json!([3]), json!(3), 40), ([1, 1], json!([5]), json!(null), -9)] {
        let e = explore(0, "cave_01", 1, dice, step(thresholds, reached, json!([{"get": "reputation", "n": n}])));
        let before = player(&state_until(&log(2, vec![]), 0), 0)["reputation"].as_i64().unwrap_or(0);
        let l = log(2, vec![e]);
        let after = player(&state_until(&l, 1), 0)["reputation"].as_i64().unwrap_or(0);
        assert_ne!(after - before, n);
        let report = trust::report(&run(&l));
        assert_eq!(report["players"][0]["trusted"]["encounter_reputation"].as_i64(), Some(after - before), "{n}");
    }
}

/// H.38 (Catalogues in seeded mode). docs/rules/above-and-below.md decides: "In seeded mode the decks are exactly the
/// catalogue's entries, however few; a deck that runs out is empty (H.24)."
///
/// Shown here: a seeded catalogue with 2 caves and 5 basic houses: the cave deck holds 2, the
/// house deck the one left after the row is dealt; the two successful explorations draw exactly
/// the catalogue's two caves and leave the cave deck empty (a further Explore is then
/// `E_CAVE_DECK_EMPTY`, H.24's test).
#[test]
fn h38_seeded_decks_are_the_catalogue() {
    let mut s = seeded(setup(2), 3);
    s["catalogue"]["caves"] = json!([{"id": "cave_01"}, {"id": "cave_02"}]);
    if let Some(cards) = s["catalogue"]["cards"].as_array_mut() {
        cards.retain(|c| {
            c["id"].as_str().is_none_or(|id| id.strip_prefix("house_").and_then(|k| k.parse::<u32>().ok()) <= Some(5))
        });
    }
    let decks = state_until(&log_with(s.clone(), vec![]), 0)["decks"].clone();
    assert_eq!((decks["caves"].as_u64(), decks["houses"].as_u64()), (Some(2), Some(1)));
    let ex = |p: usize| {
        turn(
            p,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"],
                   "step": {"paragraph": 5, "option": 1, "thresholds": [], "reached": 0, "outcome": []}}),
        )
    };
    let l = log_with(s, vec![ex(0), ex(1)]);
    let st = state_until(&l, 2);
    assert_eq!(st["decks"]["caves"].as_u64(), Some(0));
    let caves = |p: usize| player(&st, p)["caves"].as_array().map(|c| c.iter().map(|c| c["id"].clone()).collect());
    let (a, b): (Option<Vec<Value>>, Option<Vec<Value>>) = (caves(0), caves(1));
    let mut both = [a.unwrap_or_default(), b.unwrap_or_default()].concat();
    both.sort_by_key(|v| v.to_string());
    assert_eq!(both, vec![json!("cave_01"), json!("cave_02")]);
}

/// H.39 (Rerolling dice of villagers who left the cave). docs/rules/above-and-below.md decides: "A die of a villager
/// who left the party still counts toward the total but may no longer be rerolled."
///
/// Shown here (one reroll allowed by a house): the quill's effort takes it out of the cave at
/// the first step; at the second its die (4: 1 lantern) still counts — 1 + 1 + 1 effort = 3 —
/// but rerolling it is `E_REROLL`, while rerolling the explorer, still in the cave, is legal.
#[test]
fn h39_left_villagers_die_counts_but_is_not_rerolled() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "rerolls", "n": 1}])));
    let chain = |rerolls: Value| {
        turn(
            0,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1,
                   "rolls": two_rolls(1, 4),
                   "step": {"paragraph": 1, "option": 1, "thresholds": [3], "efforts": ["start_quill"], "reached": 3, "outcome": [],
                            "then": {"paragraph": 130, "option": 1, "thresholds": [3], "rerolls": rerolls, "reached": 3, "outcome": []}}}),
        )
    };
    let entries = |rerolls: Value| vec![build(0, "house_01", Some("house_05")), pass(1), chain(rerolls)];
    assert_ok(&log_with(s.clone(), entries(json!([]))));
    assert_ok(&log_with(s.clone(), entries(json!([{"villager": "start_explorer", "die": 4}]))));
    assert_error(&log_with(s, entries(json!([{"villager": "start_quill", "die": 6}]))), Some(2), "E_REROLL");
}

/// G.5 (What a replay reports about trust): "the totals gained from encounter outcomes: coins,
/// … Coins or goods that a card's own effect pays during an exploration (for example a coin
/// per exploration) are checked card effects, not encounter outcomes, and are not counted
/// here."
///
/// Shown here: a `coin_on_explore` card's coin is not an encounter coin; an encounter's 2 coins
/// are; a failed step's `lose_coins` penalty takes coins but is no gain, so it leaves the
/// encounter count alone (coins, goods, potions and cider count what encounters gave).
#[test]
fn g5_trust_counts_encounter_gains_only() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "coin_on_explore", "n": 1}])));
    let gain = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "coins", "n": 2}])));
    let l = log_with(s.clone(), vec![build(0, "house_01", Some("house_05")), pass(1), gain]);
    let r = run(&l);
    assert!(r.error.is_none(), "{:?}", r.error);
    let t = trust::report(&r)["players"][0]["trusted"].clone();
    assert_eq!(t["encounter_coins"].as_i64(), Some(2));
    let coins = |n: usize| player(&state_until(&l, n), 0)["coins"].as_i64().unwrap_or(0);
    assert_eq!(coins(3) - coins(2), 3, "2 from the encounter, 1 from the card");
    let lose = explore(0, "cave_01", 1, [1, 1], step(json!([5]), json!(null), json!([{"get": "lose_coins", "n": 3}])));
    let r = run(&log(2, vec![lose]));
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(trust::report(&r)["players"][0]["trusted"]["encounter_coins"].as_i64(), Some(0));
}
