//! Decisions H.1–H.17 of `docs/rules/above-and-below.md`.

use serde_json::{json, Value};

use super::*;
use crate::common::*;

/// H.1 (Outpost count (and deck sizes)). docs/rules/above-and-below.md decides: "Not hard-coded. The deck size used by
/// G.1.1 is, with a complete catalogue (a named one, one that `extends` a named one, or any
/// catalogue in seeded mode), the number of its entries of that kind; otherwise the count of A.7
/// (25 basic houses, 25 outposts as printed in IT, 18 regular villagers, 25 caves)."
///
/// Shown here: explicit mode counts the printed deck sizes (25 basic houses, 4 in the row).
#[test]
fn h01_deck_sizes_without_a_complete_catalogue() {
    assert_eq!(state_until(&log(2, vec![]), 0)["decks"]["houses"], 21);
    assert_eq!(state_until(&log(2, vec![]), 0)["decks"]["outposts"], 21);
    assert_eq!(state_until(&log(2, vec![]), 0)["decks"]["villagers"], 13);
    assert_eq!(state_until(&log(2, vec![]), 0)["decks"]["caves"], 25);
}

/// H.1, second half: in seeded mode the catalogue is complete, so its entries set the deck sizes
/// (here 10 basic houses, 7 outposts and 4 caves instead of the printed 25 each).
#[test]
fn h01_deck_sizes_from_a_complete_catalogue() {
    let mut s = seeded(setup(2), 5);
    let keep = |prefix: &'static str, n: usize| {
        move |c: &Value| {
            !c["id"]
                .as_str()
                .is_some_and(|id| id.starts_with(prefix) && id[prefix.len()..].parse::<usize>().is_ok_and(|k| k > n))
        }
    };
    for (list, prefix, n) in [("cards", "house_", 10), ("cards", "outpost_", 7), ("caves", "cave_", 4)] {
        if let Some(a) = s["catalogue"][list].as_array_mut() {
            a.retain(keep(prefix, n));
        }
    }
    let decks = state_until(&log_with(s, vec![]), 0)["decks"].clone();
    assert_eq!(
        (decks["houses"].as_u64(), decks["outposts"].as_u64(), decks["caves"].as_u64()),
        (Some(6), Some(3), Some(4))
    );
}

/// H.2 (Does the starting house score 1 VP?). docs/rules/above-and-below.md decides: "No. Row 2 and the tie-break count
/// basic, key and star houses and outposts only. Every player has one starting house, so the order
/// of players is unaffected either way."
///
/// Shown here: the starting house scores nothing.
#[test]
fn h02_starting_house_scores_no_vp() {
    let r = run(&log(2, passes(2, 0, 7)));
    assert_eq!(r.scores.map(|s| s[0].houses_outposts), Some(0));
}

/// H.3 (Income after round 7). docs/rules/above-and-below.md decides: "No rest, income, restock or cider after round 7.
/// Income is received 6 times."
///
/// Shown here: income 6 times; no income after round 7.
#[test]
fn h03_income_six_times() {
    let st = state(&log(2, passes(2, 0, 7)));
    assert_eq!(player(&st, 0)["coins"], 7 + 6 * 4);
}

/// H.4 (Supply limits). docs/rules/above-and-below.md decides: "Coins, potions, cider and goods are unlimited for
/// legality. Exceeding the token counts gives warning `W_SUPPLY`."
///
/// Shown here: supplies are unlimited; too many tokens is only W_SUPPLY.
#[test]
fn h04_supply_is_a_warning() {
    let s = with_card(
        setup(2),
        "house_01",
        card("house_01", 2, json!([{"effect": "goods_once", "good": "amethyst", "n": 9}])),
    );
    let r = run(&log_with(s, vec![build(0, "house_01", Some("house_05"))]));
    assert!(r.error.is_none());
    assert!(r.warnings.iter().any(|w| w.code == "W_SUPPLY"));
}

/// H.5 (Cider and potions as coins). docs/rules/above-and-below.md decides: "With the effect, each token is worth 1
/// coin
/// in any payment to the supply (Build, Train, Refresh, encounter `pay` items and bonuses), written
/// as the payment object of D.5.3; never in a purchase from a player."
///
/// Shown here: cider pays as a coin only with `cider_as_coin`, and only to the supply.
#[test]
fn h05_cider_as_coin() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "cider_as_coin"}])));
    let pay_cider = turn(
        0,
        json!({"do": "build", "villager": "start_hammer", "card": "house_03", "refill": "house_06", "pay": {"coins": 3, "cider": 1}}),
    );
    let e = vec![labor(0, &["start_quill"]), pass(1), build(0, "house_01", Some("house_05")), pay_cider.clone()];
    let mut e2 = e.clone();
    e2.truncate(3);
    e2.push(turn(0, json!({"do": "build", "villager": "start_explorer", "card": "house_03", "refill": "house_06"})));
    assert_error(&log_with(s.clone(), e2), Some(3), "E_SKILL_REQUIRED");
    // Needs a second hammer: round 2.
    let mut e3 = vec![labor(0, &["start_quill"]), pass(1), build(0, "house_01", Some("house_05")), pass(0), pass(1)];
    e3.push(pay_cider.clone());
    let st = state(&log_with(s, e3.clone()));
    assert_eq!(player(&st, 0)["cider"], 0);
    assert_eq!(player(&st, 0)["houses"].as_array().map(Vec::len), Some(3));
    assert_error(&log(2, e3), Some(5), "E_PAYMENT");
}

/// H.6 (Scope of "gain 1 coin when building"). docs/rules/above-and-below.md decides: "Applies to every card bought
/// with
/// the Build action (houses and outposts), from every other card with the symbol. It does not apply
/// to cards gained free from an encounter (`card`), which are not built."
///
/// Shown here: coin_on_build pays for every other card bought with Build, not for itself.
#[test]
fn h06_coin_on_build() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "coin_on_build", "n": 1}])));
    let e =
        vec![build(0, "house_01", Some("house_05")), pass(1), pass(0), pass(1), build(0, "house_02", Some("house_06"))];
    let l = log_with(s, e);
    assert_eq!(player(&state_until(&l, 1), 0)["coins"], 5, "not for the card itself");
    assert_eq!(player(&state(&l), 0)["coins"], 5 + 4 - 3 + 1);
}

/// H.7 (Which dice may be rerolled). docs/rules/above-and-below.md decides: "Lantern dice only, one point per reroll.
/// The paragraph die and Cave Cat obedience dice are never rerolled. Points from several cards add
/// up. They are per exploration and do not carry over."
///
/// Shown here: only party lantern dice are rerolled.
#[test]
fn h07_only_lantern_dice_reroll() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "rerolls", "n": 1}])));
    let mut e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([])));
    e["action"]["rerolls"] = json!([{"villager": "start_hammer", "die": 6}]);
    assert_error(&log_with(s, vec![build(0, "house_01", Some("house_05")), pass(1), e]), Some(2), "E_REROLL");
}

/// H.8 (Potion then bed on one villager). docs/rules/above-and-below.md decides: "Allowed (injured → exhausted by
/// potion, exhausted → ready by bed). The order is fixed: potions, cider, beds."
///
/// Shown here: potion then bed on one villager.
#[test]
fn h08_potion_then_bed() {
    let e = explore(
        0,
        "cave_01",
        1,
        [1, 1],
        json!({"paragraph": 1, "option": 1, "thresholds": [2], "efforts": ["start_quill"], "reached": 2, "outcome": [{"get": "potion", "n": 1}]}),
    );
    let l = log(
        2,
        vec![
            e,
            pass(1),
            pass(0),
            json!({"type": "round_end", "rest": [{"player": 0, "potions": ["start_quill"], "beds": ["start_quill", "start_explorer"]}]}),
        ],
    );
    let st = state(&l);
    assert_eq!(player(&st, 0)["villagers"][1]["state"], "ready");
    assert_eq!(player(&st, 0)["potions"], 0);
}

/// H.9 (Mechanical Man's bed). docs/rules/above-and-below.md decides: "It moves one step per rest by itself, does not
/// take a house bed, and its bed helps no other villager."
///
/// Shown here: a mechanical villager rests by its own bed and may not take a house bed.
#[test]
fn h09_mechanical_villager_rest() {
    let gain = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([3]), json!(3), json!([{"get": "villager", "villager": "mechanical_man_1", "from": "special"}])),
    );
    let base = vec![gain, pass(1), pass(0)];
    let st = state(&log(2, [base.clone(), vec![json!({"type": "round_end"})]].concat()));
    let mech =
        player(&st, 0)["villagers"].as_array().into_iter().flatten().find(|v| v["id"] == "mechanical_man_1").cloned();
    assert_eq!(mech.map(|m| m["state"].clone()), Some(json!("ready")));
    let bed = json!({"type": "round_end", "rest": [{"player": 0, "beds": ["mechanical_man_1"]}]});
    assert_error(&log(2, [base, vec![bed]].concat()), Some(3), "E_REST");
}

/// H.10 (4-player round-1 starters). docs/rules/above-and-below.md decides: "They move during rest step F.5.1, before
/// potions, cider and beds, without using a bed."
///
/// Shown here: the 4-player starters move to ready by themselves after round 1.
#[test]
fn h10_four_player_starters() {
    let st = state(&log(4, vec![labor(0, &["start_hammer"]), pass(1), pass(2), pass(3), json!({"type": "round_end"})]));
    let states: Vec<&str> =
        player(&st, 0)["villagers"].as_array().into_iter().flatten().filter_map(|v| v["state"].as_str()).collect();
    assert_eq!(states, vec!["ready"; 3]);
    assert_error(&log(4, vec![labor(0, &["start_quill"])]), Some(0), "E_VILLAGER_NOT_READY");
}

/// H.11 (Cave Cat inside a group action). docs/rules/above-and-below.md decides: "Obedience dice are rolled before the
/// action is resolved, and for Explore before the cave is drawn: the cave deck is face up (IT Prep.
/// 6), so the order reveals nothing, and a cat failure never leaves a drawn cave without an
/// exploration. A failed cat leaves the group. The player then takes any action with other
/// villagers or ends the turn without an action (D.2.6)."
///
/// Shown here, in seeded mode (dice are drawn in the order they are rolled): with a Cave Cat in
/// the party, the cat's obedience die takes the die a party without a cat gives to the paragraph,
/// and the paragraph die takes the die that would have been the first lantern die. In explicit
/// mode, a failed cat with no action draws no cave, and a failed cat leaves the party.
#[test]
#[allow(clippy::type_complexity)]
fn h11_cat_rolls_come_first() {
    // Seeded, caves without paragraph tables (their paragraphs are then declared, H.33):
    // P0 gains cave_cat_1 in round 1; in round 2 P0 explores with or without it.
    let gain = |p: usize| {
        turn(
            p,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"],
            "step": {"paragraph": 5, "option": 1, "thresholds": [], "reached": 0,
                     "outcome": [{"get": "villager", "villager": "cave_cat_1", "from": "special"}]}}),
        )
    };
    let game = |seed: u64, action: Value| {
        let mut s = seeded(setup(2), seed);
        for cave in s["catalogue"]["caves"].as_array_mut().into_iter().flatten() {
            cave.as_object_mut().map(|o| o.remove("paragraphs"));
        }
        log_with(s, vec![gain(0), pass(1), pass(0), json!({"type": "round_end"}), pass(1), turn(0, action)])
    };
    let step0 = json!({"paragraph": 6, "option": 1, "thresholds": [], "reached": 0, "outcome": []});
    // The value 1–6 the seed gives at a place: the first one whose writing is not
    // E_RANDOM_MISMATCH (the seeded engine accepts exactly the derived value).
    let derive = |seed: u64, action: &dyn Fn(i64) -> Value| -> Option<i64> {
        (1..=6).find(|v| run(&game(seed, action(*v))).error.is_none_or(|e| e.code.as_str() != "E_RANDOM_MISMATCH"))
    };
    let with_cat_die = |v: i64| json!({"do": "explore", "party": ["cave_cat_1", "start_quill"], "cat_rolls": [{"villager": "cave_cat_1", "die": v}], "step": step0});
    let with_cat_paragraph =
        |v: i64| json!({"do": "explore", "party": ["cave_cat_1", "start_quill"], "die": v, "step": step0});
    let no_cat_paragraph =
        |v: i64| json!({"do": "explore", "party": ["start_explorer", "start_quill"], "die": v, "step": step0});
    let no_cat_lantern = |v: i64| {
        json!({"do": "explore", "party": ["start_explorer", "start_quill"],
        "rolls": [{"villager": "start_explorer", "die": v}, {"villager": "start_quill"}], "step": step0})
    };
    let mut checked = 0;
    for seed in 0..40u64 {
        if checked == 3 {
            break;
        }
        let (Some(cat), Some(paragraph), Some(first), Some(second)) = (
            derive(seed, &with_cat_die),
            derive(seed, &with_cat_paragraph),
            derive(seed, &no_cat_paragraph),
            derive(seed, &no_cat_lantern),
        ) else {
            continue;
        };
        if cat == paragraph {
            continue; // this seed cannot tell the two orders apart
        }
        assert_eq!(cat, first, "seed {seed}: the obedience die is the action's first die");
        assert_eq!(paragraph, second, "seed {seed}: the paragraph die comes after it");
        checked += 1;
    }
    assert_eq!(checked, 3, "three seeds that tell the orders apart");

    // Explicit mode: a cat that fails, and no action, leaves the cave deck untouched.
    let gain = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([3]), json!(3), json!([{"get": "villager", "villager": "cave_cat_1", "from": "special"}])),
    );
    let base = vec![
        gain,
        pass(1),
        pass(0),
        json!({"type": "round_end", "rest": [{"player": 0, "beds": ["start_explorer", "start_quill", "cave_cat_1"]}]}),
        pass(1),
    ];
    let fail_only = json!({"type": "turn", "player": 0, "cat_fails": [{"villager": "cave_cat_1", "die": 1}]});
    let before = state_until(&log(2, base.clone()), 5);
    let after = state_until(&log(2, [base.clone(), vec![fail_only]].concat()), 6);
    assert_eq!(after["decks"]["caves"], before["decks"]["caves"], "no cave drawn");
    let cat =
        after["players"][0]["villagers"].as_array().into_iter().flatten().find(|v| v["id"] == "cave_cat_1").cloned();
    assert_eq!(cat.map(|c| c["state"].clone()), Some(json!("exhausted")));
    // A failed cat leaves the party: an explore with only one other villager is too small.
    let e = json!({"type": "turn", "player": 0, "cat_fails": [{"villager": "cave_cat_1", "die": 2}],
        "action": {"do": "explore", "party": ["start_hammer"], "cave": "cave_02", "die": 1, "rolls": [{"villager": "start_hammer", "die": 1}], "step": step(json!([]), json!(0), json!([]))}});
    assert_error(&log(2, [base, vec![e]].concat()), Some(5), "E_PARTY_SIZE");
}

/// H.12 (Where villagers gained from encounters go). docs/rules/above-and-below.md decides: "Exhausted, like trained
/// villagers. `train_to_ready` does not apply (it concerns Train)."
///
/// Shown here: villagers gained from an encounter arrive exhausted, even with train_to_ready.
#[test]
fn h12_encounter_villagers_arrive_exhausted() {
    // Player 0 owns a `train_to_ready` card (house_01 changed), then gains villager_01 from an
    // encounter: exhausted all the same.
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "train_to_ready"}])));
    let gain = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(
            json!([3]),
            json!(3),
            json!([{"get": "villager", "villager": "villager_01", "from": "row", "which": "cheapest"}]),
        ),
    );
    let st = state(&log_with(s, vec![build(0, "house_01", Some("house_05")), pass(1), gain]));
    assert_eq!(player(&st, 0)["villagers"][3], json!({"id": "villager_01", "state": "exhausted"}));
    // `which: cheapest` must name a villager of the cheapest occupied slot.
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(
            json!([3]),
            json!(3),
            json!([{"get": "villager", "villager": "villager_02", "from": "row", "which": "cheapest"}]),
        ),
    );
    assert_error(&log(2, vec![e]), Some(0), "E_OUTCOME");
}

/// H.13 (Glogo's discount). docs/rules/above-and-below.md decides: "Glogo = `hammer_plus`: −1 in total, never −2."
///
/// Shown here: Glogo pays 1 less, never 2.
#[test]
fn h13_glogo_discount() {
    let gain = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([3]), json!(3), json!([{"get": "villager", "villager": "glogo", "from": "special"}])),
    );
    let l = log(
        2,
        vec![
            gain,
            pass(1),
            pass(0),
            json!({"type": "round_end"}),
            pass(1),
            turn(0, json!({"do": "build", "villager": "glogo", "card": "house_04", "refill": "house_05"})),
        ],
    );
    assert_eq!(player(&state(&l), 0)["coins"], 7 + 4 - 4);
}

/// H.14 (Chained paragraphs). docs/rules/above-and-below.md decides: "One set of lantern dice per exploration; they all
/// carry over, including those of villagers that left the cave. Efforts and rerolls may be added at
/// any step and carry over; the reroll allowance (E.5) is for the whole exploration. Bonuses count
/// only at the step they belong to. The last step decides success."
///
/// Shown here: dice carry over a chain; efforts may be added at a later step.
#[test]
fn h14_chained_steps_share_dice() {
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        json!({"paragraph": 1, "option": 1, "thresholds": [3], "reached": 3, "outcome": [],
        "then": {"paragraph": 120, "option": 1, "thresholds": [4], "efforts": ["start_quill"], "reached": 4, "outcome": [{"get": "coins", "n": 1}]}}),
    );
    let st = state(&log(2, vec![e]));
    assert_eq!(player(&st, 0)["coins"], 8);
    assert_eq!(player(&st, 0)["caves"][0]["id"], "cave_01");
}

/// H.15 (Reward names a villager, card or cave that is not available; penalty takes more than the
/// player has). docs/rules/above-and-below.md decides: "That part of the outcome is lost, and the rest applies. The log
/// leaves the item out (for `lose_good`, it writes only what the reserve held). Naming an
/// unavailable villager, card or cave, or losing items not in the reserve, is `E_OUTCOME`."
///
/// Shown here: an unavailable reward is left out; naming it is E_OUTCOME; penalties take only what
/// exists.
#[test]
fn h15_unavailable_rewards() {
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "card", "card": "house_09"}])));
    assert_error(&log(2, vec![e]), Some(0), "E_OUTCOME");
    let e = explore(0, "cave_01", 1, [1, 1], step(json!([5]), json!(null), json!([{"get": "lose_coins", "n": 50}])));
    assert_eq!(player(&state(&log(2, vec![e])), 0)["coins"], 0);
}

/// H.16 (Reputation beyond the track). docs/rules/above-and-below.md decides: "Clamped at the ends. The excess is
/// lost."
///
/// Shown here: reputation is clamped at the track's ends.
#[test]
fn h16_reputation_clamped() {
    let gain =
        |n: i64| explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "reputation", "n": n}])));
    let r = run(&log(2, vec![gain(40)]));
    assert!(r.warnings.iter().any(|w| w.code == "W_OUTCOME_UNUSUAL"));
    assert_eq!(player(&state(&log(2, vec![gain(40)])), 0)["reputation"], 7, "the synthetic track ends at 7");
    let lose = explore(0, "cave_01", 1, [1, 1], step(json!([5]), json!(null), json!([{"get": "reputation", "n": -9}])));
    assert_eq!(player(&state(&log(2, vec![lose])), 0)["reputation"], -2, "the top of the track is -2");
}

/// H.17 (What "Edificio" counts in `vp_per [house]`). docs/rules/above-and-below.md decides: "Own basic, key and star
/// houses, including the scoring card itself. Never the starting house or outposts."
///
/// Shown here: `vp_per [house]` counts own basic, key and star houses, itself included; never the
/// starting house or outposts.
#[test]
fn h17_vp_per_house() {
    let s =
        with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "vp_per", "per": ["house"], "n": 1}])));
    let r =
        run(&log_with(s, [vec![build(0, "house_01", Some("house_05")), pass(1), pass(0)], passes(2, 1, 6)].concat()));
    assert_eq!(r.scores.map(|s| s[0].card_vp_variable), Some(1));
}
