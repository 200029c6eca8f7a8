//! Actions (`docs/rules/village.md` D.1 – D.3, D.5 – D.7, G.5, G.6, G.8 – G.10).

use serde_json::json;

use crate::common::*;

/// D.1, G.5.1: 2 grain; needs a member on the farm.
#[test]
fn d1_harvest() {
    let s = state_until(&game2(vec![turn(0, "harvest", "green", json!({"do": "harvest"}))]));
    assert_eq!(s["players"][0]["grain"], json!(2));
}

/// D.2, G.5.2, G.5.3: birth of the lowest reserve generation; a recall needs a member on the board.
#[test]
fn d2_family() {
    let s = state_until(&game2(vec![turn(0, "family", "pink", json!({"do": "family"}))]));
    let born =
        s["players"][0]["members"].as_array().map(|m| m.iter().filter(|x| x["gen"] == 2 && x["at"] == "farm").count());
    assert_eq!(born, Some(1));
    let bad = game2(vec![turn(0, "family", "pink", json!({"do": "family", "recall": {"gen": 1}}))]);
    assert_invalid(&bad, 1, "member_not_found");
    let recall = game2(vec![
        turn(
            0,
            "crafts",
            "orange",
            json!({"do": "craft", "building": "blacksmith", "pay": "time", "train": {"gen": 1}}),
        ),
        take(1, "harvest", "green"),
        turn(0, "family", "pink", json!({"do": "family", "recall": {"gen": 1, "at": "craft:blacksmith"}})),
    ]);
    let s = state_until(&recall);
    let farm = s["players"][0]["members"].as_array().map(|m| m.iter().filter(|x| x["at"] == "farm").count());
    assert_eq!(farm, Some(4));
}

/// D.3, G.6: crafts with time (training first), with the price, at the mill; the checks' codes.
#[test]
fn d3_crafts_table() {
    let ok = [
        (json!({"do": "craft", "building": "blacksmith", "pay": "time", "train": {"gen": 1}}), "plough", 6),
        (json!({"do": "craft", "building": "wainwright", "pay": "price", "coin_for": ["pink"]}), "wagon", 0),
        (json!({"do": "craft", "building": "stables", "good": "ox", "pay": "time", "train": {"gen": 1}}), "ox", 6),
        (json!({"do": "craft", "building": "office", "pay": "time", "train": {"gen": 1}}), "scroll", 4),
    ];
    for (action, good, time) in ok {
        let s = state_until(&game2(vec![turn(0, "crafts", "orange", action.clone())]));
        assert_eq!(s["players"][0]["goods"][good], json!(1), "{action}");
        assert_eq!(s["players"][0]["time"], json!(time), "{action}");
    }
    let bad = [
        (json!({"do": "craft", "building": "stables", "pay": "price"}), "bad_good"),
        (json!({"do": "craft", "building": "office", "good": "horse", "pay": "price"}), "bad_good"),
        (json!({"do": "craft", "building": "blacksmith", "pay": "time"}), "not_trained"),
        (json!({"do": "craft", "building": "blacksmith"}), "bad_craft"),
        (json!({"do": "craft", "building": "mill", "pay": "time"}), "bad_craft"),
        (json!({"do": "craft", "building": "office", "pay": "price", "train": {"gen": 1}}), "bad_craft"),
        (json!({"do": "craft", "building": "mill"}), "cannot_pay"),
        (json!({"do": "craft", "building": "blacksmith", "pay": "price"}), "cannot_pay"),
        (
            json!({"do": "craft", "building": "blacksmith", "pay": "price", "coin_for": ["green"]}),
            "bad_coin_substitution",
        ),
        (json!({"do": "craft", "building": "blacksmith", "pay": "time", "train": {"gen": 2}}), "member_not_found"),
    ];
    for (action, code) in bad {
        assert_invalid(&game2(vec![turn(0, "crafts", "orange", action)]), 1, code);
    }
}

/// H.4: "No default: training at the stables or the office needs `components.training` for
/// that building (`missing_component_data` otherwise)."
#[test]
fn h4_stables_training_needs_data() {
    let mut c = synthetic();
    c["training"] = json!({"office": 2});
    let log = log2(
        c,
        vec![
            populate1(),
            turn(
                0,
                "crafts",
                "orange",
                json!({"do": "craft", "building": "stables", "good": "horse", "pay": "time", "train": {"gen": 1}}),
            ),
        ],
    );
    assert_invalid(&log, 1, "missing_component_data");
}

/// D.3: the mill turns 2 time and 2 grain into 2 coins.
#[test]
fn d3_mill() {
    let s = state_until(&game2(vec![
        turn(0, "harvest", "green", json!({"do": "harvest"})),
        take(1, "harvest", "orange"),
        turn(0, "crafts", "orange", json!({"do": "craft", "building": "mill"})),
    ]));
    assert_eq!(s["players"][0]["coins"], json!(3));
    assert_eq!(s["players"][0]["grain"], json!(0));
    assert_eq!(s["players"][0]["time"], json!(2));
}

/// D.5, G.8: enter, advance, privileges, and their refusals.
#[test]
fn d5_council() {
    let enter =
        json!({"do": "council", "enter": {"gen": 1}, "pay": "green", "coin_for": ["green"], "privilege": {"stage": 1}});
    let log = game2(vec![take(0, "council", "green"), take(1, "harvest", "green"), turn(0, "council", "green", enter)]);
    let s = state_until(&log);
    assert_eq!(s["next_first_player_token"], json!(0));
    assert_eq!(s["players"][0]["time"], json!(1));
    assert_eq!(s["players"][0]["coins"], json!(0));
    let bad = [
        (json!({"do": "council", "enter": {"gen": 1}, "pay": "green"}), "cannot_pay"),
        (json!({"do": "council", "enter": {"gen": 1}, "pay": "scroll"}), "cannot_pay"),
        (json!({"do": "council", "privilege": {"stage": 1}}), "no_council_member"),
        (json!({"do": "council", "advance": {"gen": 1, "at": "council:1"}, "pay": "green"}), "member_not_found"),
        (
            json!({"do": "council", "enter": {"gen": 1}, "pay": "green", "coin_for": ["green"], "privilege": {"stage": 2, "cubes": ["pink", "pink"]}}),
            "privilege_too_high",
        ),
    ];
    for (action, code) in bad {
        assert_invalid(&game2(vec![turn(0, "council", "green", action)]), 1, code);
    }
}

/// D.5 (b), H.36: advancing needs `council_time`; the stage-2 privilege takes 2 cubes.
#[test]
fn d5_advance_and_stage_2_privilege() {
    let entries = vec![
        turn(
            0,
            "council",
            "green",
            json!({"do": "council", "enter": {"gen": 1}, "pay": "green", "coin_for": ["green"]}),
        ),
        take(1, "harvest", "green"),
        take(0, "council", "green"),
        take(1, "harvest", "orange"),
        take(0, "travel", "brown"),
        take(1, "crafts", "orange"),
        turn(
            0,
            "council",
            "brown",
            json!({"do": "council", "advance": {"gen": 1, "at": "council:1"}, "pay": "green",
            "coin_for": ["green"], "privilege": {"stage": 2, "cubes": ["pink", "pink"]}}),
        ),
    ];
    let log = game2(entries.clone());
    assert_invalid(&log, 7, "cannot_pay"); // no coin left: the first coin paid the enter.
    let mut fixed = entries;
    fixed[6] = json!({"type": "turn", "player": 0, "take": {"space": "council", "cube": "brown"}, "action": {"do": "council",
        "advance": {"gen": 1, "at": "council:1"}, "pay": "green", "coin_for": [], "privilege": {"stage": 2, "cubes": ["pink", "pink"]}}});
    let log = game2(fixed.clone());
    assert_invalid(&log, 7, "cannot_pay"); // one green only
    let mut c = synthetic();
    c.as_object_mut().map(|o| o.remove("council_time"));
    let mut e = fixed;
    e.insert(0, populate1());
    assert_invalid(&log2(c, e), 7, "missing_component_data");
}

/// D.6, G.9: departing to a city next to the village, paying time, wagon and cubes.
#[test]
fn d6_travel() {
    let entries = vec![
        turn(
            0,
            "crafts",
            "pink",
            json!({"do": "craft", "building": "wainwright", "pay": "price", "coin_for": ["orange"]}),
        ),
        take(1, "harvest", "green"),
        turn(
            0,
            "travel",
            "brown",
            json!({"do": "travel", "member": {"gen": 1}, "to": "south", "coin_for": ["orange"],
            "reward": {"cubes": ["green", "green"]}}),
        ),
    ];
    // No coin left for the orange of the south path: cannot pay.
    assert_invalid(&game2(entries.clone()), 3, "cannot_pay");
    let bad = [
        (json!({"do": "travel", "member": {"gen": 1}, "to": "east"}), "not_adjacent"),
        (json!({"do": "travel", "member": {"gen": 1}, "to": "atlantis"}), "unknown_id"),
        (json!({"do": "travel", "member": {"gen": 1}, "to": "north"}), "cannot_pay"),
        (json!({"do": "travel", "member": {"gen": 3}, "to": "north"}), "member_not_found"),
    ];
    for (action, code) in bad {
        assert_invalid(&game2(vec![turn(0, "travel", "brown", action)]), 1, code);
    }
}

/// D.7, G.10.1: a member into the black bag for a brown cube or 3 time.
#[test]
fn d7_church() {
    let s = state_until(&game2(vec![turn(
        0,
        "church",
        "brown",
        json!({"do": "church", "member": {"gen": 1}, "pay": "brown"}),
    )]));
    assert_eq!(s["players"][0]["cubes"], json!({}));
    let s = state_until(&game2(vec![turn(
        0,
        "church",
        "pink",
        json!({"do": "church", "member": {"gen": 1}, "pay": "time"}),
    )]));
    assert_eq!(s["players"][0]["time"], json!(3));
    assert_invalid(
        &game2(vec![turn(0, "church", "pink", json!({"do": "church", "member": {"gen": 1}, "pay": "brown"}))]),
        1,
        "cannot_pay",
    );
}
