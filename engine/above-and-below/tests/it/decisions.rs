//! One test per decision of `RULES.md` H (where a decision is structural, the test shows its
//! observable effect).

use serde_json::{json, Value};

use crate::common::*;

const ALL: [&str; 3] = ["start_hammer", "start_quill", "start_explorer"];

fn card(id: &str, cost: u32, effects: Value) -> Value {
    json!({"id": id, "kind": "basic", "cost": cost, "effects": effects})
}

fn harvest(p: usize, v: &[&str], take: &[&str]) -> Value {
    turn(p, json!({"do": "harvest", "villagers": v, "take": take}))
}

fn step(thresholds: Value, reached: Value, outcome: Value) -> Value {
    json!({"paragraph": 1, "option": 1, "thresholds": thresholds, "reached": reached, "outcome": outcome})
}

/// H.1: explicit mode counts the printed deck sizes (25 basic houses, 4 in the row).
#[test]
fn h01_deck_sizes_without_a_complete_catalogue() {
    assert_eq!(state_until(&log(2, vec![]), 0)["decks"]["houses"], 21);
}

/// H.2: the starting house scores nothing.
#[test]
fn h02_starting_house_scores_no_vp() {
    let r = run(&log(2, passes(2, 0, 7)));
    assert_eq!(r.scores.map(|s| s[0].houses_outposts), Some(0));
}

/// H.3: income 6 times; no income after round 7.
#[test]
fn h03_income_six_times() {
    let st = state(&log(2, passes(2, 0, 7)));
    assert_eq!(player(&st, 0)["coins"], 7 + 6 * 4);
}

/// H.4: supplies are unlimited; too many tokens is only W_SUPPLY.
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

/// H.5: cider pays as a coin only with `cider_as_coin`, and only to the supply.
#[test]
fn h05_cider_as_coin() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "cider_as_coin"}])));
    let pay_cider = turn(
        0,
        json!({"do": "build", "villager": "start_hammer", "card": "house_03", "refill": "house_06", "pay": {"coins": 3, "cider": 1}}),
    );
    let e = vec![labor(0, &["start_quill"]), pass(1), build(0, "house_01", Some("house_05")), pay_cider.clone()];
    // Player 0 has passed? No: player 1 passed, player 0 keeps playing.
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

/// H.6: coin_on_build pays for every other card bought with Build, not for itself.
#[test]
fn h06_coin_on_build() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "coin_on_build", "n": 1}])));
    let e =
        vec![build(0, "house_01", Some("house_05")), pass(1), pass(0), pass(1), build(0, "house_02", Some("house_06"))];
    let l = log_with(s, e);
    assert_eq!(player(&state_until(&l, 1), 0)["coins"], 5, "not for the card itself");
    assert_eq!(player(&state(&l), 0)["coins"], 5 + 4 - 3 + 1);
}

/// H.7: only party lantern dice are rerolled.
#[test]
fn h07_only_lantern_dice_reroll() {
    let s = with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "rerolls", "n": 1}])));
    let mut e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([])));
    e["action"]["rerolls"] = json!([{"villager": "start_hammer", "die": 6}]);
    assert_error(&log_with(s, vec![build(0, "house_01", Some("house_05")), pass(1), e]), Some(2), "E_REROLL");
}

/// H.8: potion then bed on one villager.
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

/// H.9: a mechanical villager rests by its own bed and may not take a house bed.
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

/// H.10: the 4-player starters move to ready by themselves after round 1.
#[test]
fn h10_four_player_starters() {
    let st = state(&log(4, vec![labor(0, &["start_hammer"]), pass(1), pass(2), pass(3), json!({"type": "round_end"})]));
    let states: Vec<&str> =
        player(&st, 0)["villagers"].as_array().into_iter().flatten().filter_map(|v| v["state"].as_str()).collect();
    assert_eq!(states, vec!["ready"; 3]);
    assert_error(&log(4, vec![labor(0, &["start_quill"])]), Some(0), "E_VILLAGER_NOT_READY");
}

/// H.11: in seeded mode the obedience die comes before the cave is drawn (dice order).
#[test]
fn h11_cat_rolls_come_first() {
    let code = |order: &[&str]| order.join(",");
    assert_eq!(
        code(&["cat_fails", "cat_rolls", "paragraph", "lanterns", "rerolls"]),
        "cat_fails,cat_rolls,paragraph,lanterns,rerolls"
    );
    // A failed cat leaves the party: an explore with only one other villager is too small.
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
    let e = json!({"type": "turn", "player": 0, "cat_fails": [{"villager": "cave_cat_1", "die": 2}],
        "action": {"do": "explore", "party": ["start_hammer"], "cave": "cave_02", "die": 1, "rolls": [{"villager": "start_hammer", "die": 1}], "step": step(json!([]), json!(0), json!([]))}});
    assert_error(&log(2, [base, vec![e]].concat()), Some(5), "E_PARTY_SIZE");
}

/// H.12: villagers gained from an encounter arrive exhausted, even with train_to_ready.
#[test]
fn h12_encounter_villagers_arrive_exhausted() {
    let e = explore(
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
    let st = state(&log(2, vec![e]));
    assert_eq!(player(&st, 0)["villagers"][3], json!({"id": "villager_01", "state": "exhausted"}));
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

/// H.13: Glogo pays 1 less, never 2.
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

/// H.14: dice carry over a chain; efforts may be added at a later step.
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

/// H.15: an unavailable reward is left out; naming it is E_OUTCOME; penalties take only what exists.
#[test]
fn h15_unavailable_rewards() {
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "card", "card": "house_09"}])));
    assert_error(&log(2, vec![e]), Some(0), "E_OUTCOME");
    let e = explore(0, "cave_01", 1, [1, 1], step(json!([5]), json!(null), json!([{"get": "lose_coins", "n": 50}])));
    assert_eq!(player(&state(&log(2, vec![e])), 0)["coins"], 0);
}

/// H.16: reputation is clamped at the track's ends.
#[test]
fn h16_reputation_clamped() {
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "reputation", "n": 40}])));
    let r = run(&log(2, vec![e]));
    assert!(r.warnings.iter().any(|w| w.code == "W_OUTCOME_UNUSUAL"));
    assert_eq!(
        player(
            &state(&log(
                2,
                vec![explore(
                    0,
                    "cave_01",
                    1,
                    [4, 3],
                    step(json!([3]), json!(3), json!([{"get": "reputation", "n": 40}]))
                )]
            )),
            0
        )["reputation"],
        7
    );
}

/// H.17: `vp_per [house]` counts own basic, key and star houses, itself included; never the
/// starting house or outposts.
#[test]
fn h17_vp_per_house() {
    let s =
        with_card(setup(2), "house_01", card("house_01", 2, json!([{"effect": "vp_per", "per": ["house"], "n": 1}])));
    let r =
        run(&log_with(s, [vec![build(0, "house_01", Some("house_05")), pass(1), pass(0)], passes(2, 1, 6)].concat()));
    assert_eq!(r.scores.map(|s| s[0].card_vp_variable), Some(1));
}

/// H.18: an item on the sale spot is owned but not spendable; a passed player's item can be bought.
#[test]
fn h18_sale_spot() {
    let offer = json!({"type": "pass", "player": 0, "free": [{"do": "offer", "item": "cider"}]});
    let buy = json!({"type": "turn", "player": 1, "free": [{"do": "buy", "from": 0, "price": 4}], "action": {"do": "labor", "villagers": ["start_hammer"]}});
    let st = state(&log(
        2,
        vec![labor(0, &["start_hammer"]), pass(1)]
            .into_iter()
            .take(1)
            .chain([labor(1, &["start_quill"]), offer, buy])
            .collect(),
    ));
    assert_eq!(player(&st, 1)["cider"], 1);
    assert_eq!(player(&st, 0)["coins"], 7 + 1 + 4);
}

/// H.19: storing after the last round, before scoring.
#[test]
fn h19_store_after_round_seven() {
    let e =
        explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "good", "good": "ore", "n": 2}])));
    let mut entries = vec![e, pass(1), pass(0)];
    entries.extend(passes(2, 1, 6));
    entries.push(json!({"type": "store", "player": 0, "goods": ["ore", "ore"]}));
    let r = run(&log(2, entries));
    assert_eq!(r.scores.map(|s| s[0].storage), Some(2));
}

/// H.20: a harvest may take fewer goods than villagers.
#[test]
fn h20_harvest_fewer_goods() {
    assert_ok(&log(2, vec![harvest(0, &["start_hammer"], &[])]));
}

/// H.21: potions have no use in the action phase except as coins (with the effect).
#[test]
fn h21_potions_do_not_pay_without_the_effect() {
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "potion", "n": 2}])));
    let b = turn(
        0,
        json!({"do": "build", "villager": "start_hammer", "card": "house_01", "refill": "house_05", "pay": {"potions": 2}}),
    );
    assert_error(&log(2, vec![e, pass(1), b]), Some(2), "E_PAYMENT");
}

/// H.22: no upper limit on the party.
#[test]
fn h22_party_of_three() {
    let e = turn(
        0,
        json!({"do": "explore", "party": ALL, "cave": "cave_01", "die": 1,
        "rolls": [{"villager": "start_hammer", "die": 3}, {"villager": "start_quill", "die": 3}, {"villager": "start_explorer", "die": 4}],
        "step": step(json!([4]), json!(4), json!([]))}),
    );
    assert_ok(&log(2, vec![e]));
}

/// H.23: stored goods cannot be offered.
#[test]
fn h23_stored_goods_never_move() {
    let e =
        explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "good", "good": "ore", "n": 1}])));
    let offer = json!({"type": "turn", "player": 0, "free": [{"do": "store", "goods": ["ore"]}, {"do": "offer", "item": "ore"}], "action": {"do": "labor", "villagers": ["start_hammer"]}});
    assert_error(&log(2, vec![e, pass(1), offer]), Some(2), "E_OFFER");
}

/// H.24: Explore is illegal with an empty cave deck, and an extra cave from an empty deck is
/// lost (a 1-cave catalogue in seeded mode).
#[test]
fn h24_empty_cave_deck() {
    let mut s = setup(2);
    s["catalogue"]["caves"] = json!([{"id": "cave_01"}]);
    s["random"] = json!("seeded");
    s["seed"] = json!(1);
    for f in ["key_houses", "house_row", "outpost_row", "villager_row"] {
        s.as_object_mut().map(|o| o.remove(f));
    }
    let ex = |p: usize, outcome: Value| {
        turn(
            p,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"], "step": {"paragraph": 5, "option": 1, "thresholds": [], "reached": 0, "outcome": outcome}}),
        )
    };
    assert_error(&log_with(s.clone(), vec![ex(0, json!([{"get": "cave"}]))]), Some(0), "E_OUTCOME");
    assert_error(&log_with(s, vec![ex(0, json!([])), ex(1, json!([]))]), Some(1), "E_CAVE_DECK_EMPTY");
}

/// H.25: the only price rule is ≥ 3 coins.
#[test]
fn h25_price_at_least_three() {
    let offer = json!({"type": "pass", "player": 0, "free": [{"do": "offer", "item": "cider"}]});
    let buy = |price: i64| json!({"type": "turn", "player": 1, "free": [{"do": "buy", "from": 0, "price": price}], "action": {"do": "labor", "villagers": ["start_hammer"]}});
    assert_ok(&log(2, vec![labor(0, &["start_hammer"]), labor(1, &["start_quill"]), offer.clone(), buy(8)]));
    assert_error(
        &log(2, vec![labor(0, &["start_hammer"]), labor(1, &["start_quill"]), offer, buy(2)]),
        Some(3),
        "E_BUY",
    );
}

/// H.26: no named catalogue ships; H.27: the `standard` board alone is incomplete.
#[test]
fn h26_h27_component_data_must_be_declared() {
    let mut s = setup(2);
    s["catalogue"] = json!("ab-base-2015");
    assert_error(&log_with(s, vec![]), None, "E_CATALOGUE");
    let mut s = setup(2);
    s.as_object_mut().map(|o| o.remove("board"));
    assert_error(&log_with(s, vec![]), None, "E_SETUP_BOARD");
}

/// H.28: an encounter outpost needs a cave owned before this exploration.
#[test]
fn h28_encounter_outpost_needs_an_earlier_cave() {
    let out = |cave: &str| json!([{"get": "card", "card": "outpost_01", "cave": cave, "refill": "outpost_05"}]);
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), out("cave_01")));
    assert_error(&log(2, vec![e]), Some(0), "E_OUTCOME");
    let first = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([])));
    let second = turn(
        0,
        json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_02", "die": 1,
        "rolls": [{"villager": "start_explorer", "die": 4}, {"villager": "start_quill", "die": 3}],
        "step": {"paragraph": 23, "option": 1, "thresholds": [3], "reached": 3, "outcome": out("cave_01")}}),
    );
    let st = state(&log(2, vec![first, pass(1), pass(0), json!({"type": "round_end"}), pass(1), second]));
    assert_eq!(player(&st, 0)["caves"][0]["outpost"]["id"], "outpost_01");
}

/// H.29: a refreshed row goes under the deck slot 0 first (drawn back in that order).
#[test]
fn h29_refresh_order() {
    let mut s = setup(2);
    s["random"] = json!("seeded");
    s["seed"] = json!(3);
    for f in ["key_houses", "house_row", "outpost_row", "villager_row"] {
        s.as_object_mut().map(|o| o.remove(f));
    }
    let st0 = state_until(&log_with(s.clone(), vec![]), 0);
    let row0 = st0["rows"]["outposts"].clone();
    // Refresh the outpost row 6 times (25 outposts: 21 in the deck, 24 drawn), over 6 turns.
    let r = |p: usize| json!({"type": "turn", "player": p, "free": [{"do": "refresh", "row": "outposts"}], "action": {"do": "labor", "villagers": ["start_hammer"]}});
    let mut e = vec![r(0), r(1)];
    e.push(json!({"type": "turn", "player": 0, "free": [{"do": "refresh", "row": "outposts"}], "action": {"do": "labor", "villagers": ["start_quill"]}}));
    e.push(json!({"type": "turn", "player": 1, "free": [{"do": "refresh", "row": "outposts"}], "action": {"do": "labor", "villagers": ["start_quill"]}}));
    e.push(json!({"type": "turn", "player": 0, "free": [{"do": "refresh", "row": "outposts"}], "action": {"do": "labor", "villagers": ["start_explorer"]}}));
    e.push(json!({"type": "turn", "player": 1, "free": [{"do": "refresh", "row": "outposts"}], "action": {"do": "labor", "villagers": ["start_explorer"]}}));
    let st = state(&log_with(s, e));
    // After 5 refreshes of 4 from 21 unseen: 20 drawn; the 6th draws the last unseen card, then
    // the original row from the tail, slot 0 first.
    let row = st["rows"]["outposts"].clone();
    assert_eq!(row[1], row0[0]);
    assert_eq!(row[2], row0[1]);
}

/// H.30: `per_skill` counts villagers in the cave at the start of the step, efforts included.
#[test]
fn h30_per_skill_counts_this_steps_efforts() {
    let e = explore(
        0,
        "cave_01",
        1,
        [1, 1],
        json!({"paragraph": 1, "option": 1, "thresholds": [3],
        "bonus": [{"kind": "per_skill", "skill": "quill", "n": 2}], "efforts": ["start_quill"], "reached": 3, "outcome": []}),
    );
    assert_ok(&log(2, vec![e]));
}

/// H.31: a free card may come from the star row, which is not refilled.
#[test]
fn h31_free_card_from_any_row() {
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([3]), json!(3), json!([{"get": "card", "card": "star_03", "max_cost": 8}])),
    );
    let st = state(&log(2, vec![e]));
    assert_eq!(player(&st, 0)["houses"][1]["id"], "star_03");
    assert_eq!(st["rows"]["stars"][2], json!(null));
    let e = explore(
        0,
        "cave_01",
        1,
        [4, 3],
        step(json!([3]), json!(3), json!([{"get": "card", "card": "star_03", "max_cost": 7}])),
    );
    assert_error(&log(2, vec![e]), Some(0), "E_OUTCOME");
}

/// H.32: with every space used, a new goods type cannot be stored.
#[test]
fn h32_storage_spaces_run_out() {
    let mut s = setup(2);
    s["board"]["storage"]["spaces"] = json!([[1, 5], [1, 5], [2, 6]]);
    let goods = json!([{"get": "good", "good": "ore", "n": 1}, {"get": "good", "good": "fish", "n": 1}, {"get": "good", "good": "pot", "n": 1}, {"get": "good", "good": "rope", "n": 1}]);
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), goods));
    let store = json!({"type": "store", "player": 0, "goods": ["ore", "fish", "pot", "rope"]});
    assert_error(&log_with(s, vec![e, store]), Some(1), "E_STORE");
}

/// H.33: the same cave and die give the same paragraph; the same paragraph and option the same
/// thresholds, throughout the log.
#[test]
fn h33_consistency_within_a_log() {
    let first = explore(0, "cave_01", 1, [1, 1], step(json!([4]), json!(null), json!([])));
    let again = |thresholds: Value| {
        turn(
            1,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_02", "die": 1,
            "rolls": [{"villager": "start_explorer", "die": 1}, {"villager": "start_quill", "die": 1}],
            "step": {"paragraph": 23, "option": 1, "thresholds": thresholds, "reached": null, "outcome": []}}),
        )
    };
    assert_ok(&log(2, vec![first.clone(), again(json!([4]))]));
    let mut s = setup(2);
    if let Some(c) = s["catalogue"]["caves"].as_array_mut() {
        for cave in c.iter_mut() {
            cave.as_object_mut().map(|o| o.remove("paragraphs"));
        }
    }
    let p1 = |p: u32, t: Value| {
        turn(
            1,
            json!({"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_02", "die": 1,
            "rolls": [{"villager": "start_explorer", "die": 1}, {"villager": "start_quill", "die": 1}],
            "step": {"paragraph": p, "option": 1, "thresholds": t, "reached": null, "outcome": []}}),
        )
    };
    assert_error(&log_with(s.clone(), vec![first.clone(), p1(1, json!([5]))]), Some(1), "E_THRESHOLD");
    assert_ok(&log_with(s, vec![first, p1(1, json!([4]))]));
}

/// H.34: thresholds are required in every step.
#[test]
fn h34_thresholds_required() {
    let e = explore(0, "cave_01", 1, [4, 3], json!({"paragraph": 1, "option": 1, "reached": 0, "outcome": []}));
    assert_error(&log(2, vec![e]), Some(0), "E_FORMAT");
}

/// H.35: players still tied after the tie-breaks share the win.
#[test]
fn h35_shared_win() {
    let r = run(&log(2, [vec![labor(0, &["start_hammer"]), pass(1), pass(0)], passes(2, 1, 6)].concat()));
    assert_eq!(r.winners, vec![0, 1]);
    let v = <chronicle_above_and_below::AboveAndBelow as chronicle_game::GameEngine>::verdict(&r);
    assert!(v.players.iter().all(|p| p.winner && p.rank == Some(1)));
}
