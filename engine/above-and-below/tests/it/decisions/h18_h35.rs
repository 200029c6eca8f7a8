//! Decisions H.18–H.35 of `docs/rules/above-and-below.md`.

use serde_json::{json, Value};

use super::*;
use crate::common::*;

/// H.18 (Items on the sale spot). docs/rules/above-and-below.md decides: "Still owned (they count for `vp_per`,
/// `if_have`, `per_have`), not stored (no income, no storage VP). They cannot be spent (payments,
/// rest), stored or lost to `lose_good` until withdrawn to the reserve on the owner's turn (IT p.9:
/// "solo durante il tuo turno"). A passed player's item can still be bought (the sale is that
/// player's acceptance, not an action)."
///
/// Shown here: a cider on the sale spot still counts as owned for an `if_have` bonus, cannot be
/// spent at rest, and can be bought from a player who has passed.
#[test]
fn h18_sale_spot() {
    let offer_and_explore = json!({"type": "turn", "player": 0, "free": [{"do": "offer", "item": "cider"}],
        "action": {"do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_01", "die": 1,
            "rolls": [{"villager": "start_explorer", "die": 1}, {"villager": "start_quill", "die": 1}],
            "step": {"paragraph": 1, "option": 1, "thresholds": [2], "bonus": [{"kind": "if_have", "item": "cider", "n": 1}],
                     "reached": 2, "outcome": []}}});
    assert_ok(&log(2, vec![labor(0, &["start_hammer"]), labor(1, &["start_quill"]), offer_and_explore]));
    let offer = json!({"type": "pass", "player": 0, "free": [{"do": "offer", "item": "cider"}]});
    let rest = json!({"type": "round_end", "rest": [{"player": 0, "cider": ["start_hammer"]}]});
    assert_error(&log(2, vec![labor(0, &["start_hammer"]), pass(1), offer.clone(), rest]), Some(3), "E_REST");
    let buy = json!({"type": "turn", "player": 1, "free": [{"do": "buy", "from": 0, "price": 4}], "action": {"do": "labor", "villagers": ["start_hammer"]}});
    let st = state(&log(2, vec![labor(0, &["start_hammer"]), labor(1, &["start_quill"]), offer, buy]));
    assert_eq!(player(&st, 1)["cider"], 1);
    assert_eq!(player(&st, 0)["sale"], json!(null));
    assert_eq!(player(&st, 0)["coins"], 7 + 1 + 4);
}

/// H.19 (Storing goods at the end). docs/rules/above-and-below.md decides: "Allowed after the last round, before
/// scoring. Also allowed between the last pass of a round and its income."
///
/// Shown here: storing after the last round, before scoring.
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

/// H.19, second half: goods stored between the last pass of a round and its income raise that
/// income (two types reach storage space 2, income 5 on the synthetic board, against 4).
#[test]
fn h19_store_before_the_income() {
    let goods = json!([{"get": "good", "good": "ore", "n": 1}, {"get": "good", "good": "fish", "n": 1}]);
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), goods));
    let store = json!({"type": "store", "player": 0, "goods": ["ore", "fish"]});
    let coins = |between: Vec<serde_json::Value>| {
        let entries = [vec![e.clone(), pass(1), pass(0)], between, vec![json!({"type": "round_end"})]].concat();
        player(&state(&log(2, entries)), 0)["coins"].clone()
    };
    assert_eq!(coins(vec![store]), 7 + 5);
    assert_eq!(coins(vec![]), 7 + 4);
}

/// H.20 (Harvest with fewer goods than villagers). docs/rules/above-and-below.md decides: "Legal."
///
/// Shown here: a harvest may take fewer goods than villagers.
#[test]
fn h20_harvest_fewer_goods() {
    assert_ok(&log(2, vec![harvest(0, &["start_hammer"], &[])]));
}

/// H.21 (Other uses of potions and cider). docs/rules/above-and-below.md decides: "No other use. They cannot be spent
/// during the action phase except as coins (H.5)."
///
/// Shown here: potions have no use in the action phase except as coins (with the effect).
#[test]
fn h21_potions_do_not_pay_without_the_effect() {
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "potion", "n": 2}])));
    let b = turn(
        0,
        json!({"do": "build", "villager": "start_hammer", "card": "house_01", "refill": "house_05", "pay": {"potions": 2}}),
    );
    assert_error(&log(2, vec![e, pass(1), b]), Some(2), "E_PAYMENT");
}

/// H.22 (Party size and the 7 dice). docs/rules/above-and-below.md decides: "No upper limit."
///
/// Shown here: no upper limit on the party.
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

/// H.23 (Stored goods). docs/rules/above-and-below.md decides: "They cannot be offered, paid or lost to `lose_good`
/// (which takes from the reserve)."
///
/// Shown here: stored goods cannot be offered.
#[test]
fn h23_stored_goods_never_move() {
    let e =
        explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), json!([{"get": "good", "good": "ore", "n": 1}])));
    let offer = json!({"type": "turn", "player": 0, "free": [{"do": "store", "goods": ["ore"]}, {"do": "offer", "item": "ore"}], "action": {"do": "labor", "villagers": ["start_hammer"]}});
    assert_error(&log(2, vec![e, pass(1), offer]), Some(2), "E_OFFER");
}

/// H.24 (Empty cave deck). docs/rules/above-and-below.md decides: "Explore is illegal with an empty cave deck. An
/// extra-
/// cave reward with an empty deck is lost."
///
/// Shown here: Explore is illegal with an empty cave deck, and an extra cave from an empty deck is
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

/// H.25 (Trades and table talk). docs/rules/above-and-below.md decides: "Only completed trades are logged. Price ≥ 3
/// coins is the only price rule."
///
/// Shown here: the only price rule is ≥ 3 coins.
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

/// H.26 (Card data unavailable). docs/rules/above-and-below.md decides: "The catalogue model (B) with custom credits. A
/// log is verifiable only to the extent its catalogue is true. A named, checked catalogue is the
/// target. Encounter data is not part of `/1` (B.8)."
///
/// Shown here: a catalogue given by name is refused (no named catalogue ships), while the same
/// data declared in the log is accepted and applied (a synthetic card's beds count at rest).
#[test]
fn h26_card_data_is_declared_in_the_log() {
    let mut s = setup(2);
    s["catalogue"] = json!("ab-base-2015");
    assert_error(&log_with(s, vec![]), None, "E_CATALOGUE");
    let st = state(&log(2, vec![build(0, "house_01", Some("house_05"))]));
    assert_eq!(player(&st, 0)["beds"], 4, "start_house 3 + house_01 1, as declared");
}

/// H.27 (Board numbers unavailable). docs/rules/above-and-below.md decides: "The profile must be completed from the
/// physical board. Until then, logs carry `setup.board`."
///
/// Shown here: the built-in `standard` profile alone lacks cells and is E_SETUP_BOARD; a log
/// that supplies only the missing cells (merged over `standard`) is accepted.
#[test]
fn h27_board_numbers_come_from_the_log() {
    let mut s = setup(2);
    s.as_object_mut().map(|o| o.remove("board"));
    assert_error(&log_with(s.clone(), vec![]), None, "E_SETUP_BOARD");
    s["board"] = json!("standard");
    assert_error(&log_with(s.clone(), vec![]), None, "E_SETUP_BOARD");
    let (_, board) = components();
    s["board"] =
        json!({"storage": board["storage"], "reputation": board["reputation"], "train_costs": board["train_costs"]});
    assert_ok(&log_with(s, vec![]));
}

/// H.28 (Outpost gained from an encounter). docs/rules/above-and-below.md decides: "The outpost needs an own cave
/// without an outpost that was owned at the start of the turn. The cave being explored, and an
/// extra cave gained in the same exploration, do not qualify. With none, the item is lost (H.15)."
///
/// Shown here: an encounter outpost needs a cave owned before this exploration.
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

/// H.29 (Order of refreshed cards under the deck). docs/rules/above-and-below.md decides: "Slot 0 first, so slot 0 is
/// drawn before slot 3 once the unseen part is empty (G.1.1). A row with fewer than 4 cards puts
/// those under and draws up to 4."
///
/// Shown here: a refreshed row goes under the deck slot 0 first (drawn back in that order).
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

/// H.30 (Which villagers count for `per_skill` and `if_tag`). docs/rules/above-and-below.md decides: "Villagers sent to
/// the cave that are still there at the start of the step. This step's efforts do not remove them;
/// earlier efforts, `injure` and `lose_villager` do."
///
/// Shown here: `per_skill` counts villagers in the cave at the start of the step, this step's
/// efforts included, and no longer counts one injured by an earlier step's effort.
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
    // Dice 1 + 0, the effort +1, the quill still counted at this step +2: 4 ≥ 3.
    assert_ok(&log(2, vec![e]));
    // At a later step, the villager injured by an earlier effort no longer counts: E_BONUS.
    let chain = explore(
        0,
        "cave_01",
        1,
        [1, 1],
        json!({"paragraph": 1, "option": 1, "thresholds": [2], "efforts": ["start_quill"], "reached": 2, "outcome": [],
               "then": {"paragraph": 130, "option": 1, "thresholds": [3],
                        "bonus": [{"kind": "per_skill", "skill": "quill", "n": 1}], "reached": 3, "outcome": []}}),
    );
    assert_error(&log(2, vec![chain]), Some(0), "E_BONUS");
}

/// H.31 (Rows a free `card` reward may take from). docs/rules/above-and-below.md decides: "Any face-up row: house, key,
/// star or outpost. Key and star cards are not replaced (D.5.7)."
///
/// Shown here: a free card may come from the star row, which is not refilled.
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

/// H.32 (Number of storage spaces). docs/rules/above-and-below.md decides: "The profile gives 3 to 8 spaces (8
/// expected,
/// A.5). A new goods type with no empty space left cannot be stored (`E_STORE`)."
///
/// Shown here: with every space used, a new goods type cannot be stored.
#[test]
fn h32_storage_spaces_run_out() {
    let mut s = setup(2);
    s["board"]["storage"]["spaces"] = json!([[1, 5], [1, 5], [2, 6]]);
    let goods = json!([{"get": "good", "good": "ore", "n": 1}, {"get": "good", "good": "fish", "n": 1}, {"get": "good", "good": "pot", "n": 1}, {"get": "good", "good": "rope", "n": 1}]);
    let e = explore(0, "cave_01", 1, [4, 3], step(json!([3]), json!(3), goods));
    let store = json!({"type": "store", "player": 0, "goods": ["ore", "fish", "pot", "rope"]});
    assert_error(&log_with(s, vec![e, store]), Some(1), "E_STORE");
}

/// H.33 (Consistency of declared encounters within one log). docs/rules/above-and-below.md decides: "The same cave with
/// the same paragraph die always gives the same first paragraph, and the same paragraph and option
/// always carry the same thresholds. A log that contradicts an earlier exploration of its own is
/// `E_PARAGRAPH` or `E_THRESHOLD`. Outcomes are not compared, because they may contain a choice."
///
/// Shown here: the same cave and die give the same paragraph; the same paragraph and option the
/// same thresholds, throughout the log.
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

/// H.34 (`thresholds` in the log). docs/rules/above-and-below.md decides: "Required in every step (`[]` for an option
/// without a test), so `reached` and failure are always checked against them (E.8)."
///
/// Shown here: thresholds are required in every step.
#[test]
fn h34_thresholds_required() {
    let e = explore(0, "cave_01", 1, [4, 3], json!({"paragraph": 1, "option": 1, "reached": 0, "outcome": []}));
    assert_error(&log(2, vec![e]), Some(0), "E_FORMAT");
}

/// H.35 (Still tied after the three tie-breaks). docs/rules/above-and-below.md decides: "The tied players share the
/// win."
///
/// Shown here: players still tied after the tie-breaks share the win.
#[test]
fn h35_shared_win() {
    let r = run(&log(2, [vec![labor(0, &["start_hammer"]), pass(1), pass(0)], passes(2, 1, 6)].concat()));
    assert_eq!(r.winners, vec![0, 1]);
    let v = <chronicle_above_and_below::AboveAndBelow as chronicle_game::GameEngine>::verdict(&r);
    assert!(v.players.iter().all(|p| p.winner && p.rank == Some(1)));
}
