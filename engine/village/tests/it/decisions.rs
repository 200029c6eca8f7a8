//! One test per decision of `docs/rules/village.md` H, named `hN_…` (H.37 is a sourcing rule with nothing
//! to replay). This module holds the ones that need only a short log; `decisions_play`
//! (H.1, H.3, H.5, H.7, H.13, H.15, H.16, H.19, H.20, H.27, H.28, H.31–H.33, H.36, H.40) and
//! `decisions_solo` (H.21–H.25, H.34, H.35, H.38, H.39, H.41–H.43) the others. Elsewhere:
//! H.4 `actions::h4_stables_training_needs_data`, H.9 `deaths::h9_several_passings`, H.18
//! `mass::h18_no_majority_with_an_empty_track`.

use serde_json::json;

use crate::common::*;

/// H.2: "Both are stalls: 3 / 4 / 5 stalls for 2 / 3 / 4–5 players; the queue always has 5."
#[test]
fn h2_stall_counts() {
    for (n, stalls) in [(3usize, 4usize), (4, 5), (5, 5)] {
        let colors = ["red", "blue", "white", "yellow", "purple"];
        let players: Vec<_> = (0..n)
            .map(|i| {
                if i == 2 || i == 3 {
                    json!({"name": i.to_string(), "color": colors[i], "start_cube": "pink"})
                } else {
                    json!({"name": i.to_string(), "color": colors[i]})
                }
            })
            .collect();
        let all: Vec<String> = (1..=24).map(|i| format!("c{i:02}")).collect();
        let log = json!({"format": "village-log/1", "setup": {"players": players, "components": synthetic(),
            "customers": {"stalls": all[..stalls].to_vec(), "queue": all[stalls..stalls + 5].to_vec()}}, "entries": []});
        assert!(error(&log).is_none(), "{n} players");
    }
}

/// H.6: "G2 = 1 is built in. G3 and G4 have no default: a move onto stage 3 or 4 needs
/// `components.church_grain`." A move onto stage 2 needs no data; onto stage 3 it does.
#[test]
fn h6_church_grain() {
    let round1: Vec<_> =
        fixture("worked-example-2p-round-1.json")["entries"].as_array().map(|a| a.to_vec()).unwrap_or_default();
    let mut log = fixture("worked-example-2p-round-1.json");
    log["setup"]["components"].as_object_mut().map(|o| o.remove("church_grain"));
    log["entries"] = serde_json::Value::Array(round1);
    assert!(error(&log).is_none(), "stage 2 needs no data");
    log["entries"][23]["promote"][0]["moves"][0]["to"] = json!(3);
    assert_invalid(&log, 23, "missing_component_data");
}

/// H.10: "Gains that would exceed 5 are lost; the harvest stays legal."
#[test]
fn h10_grain_cap() {
    let e = vec![
        turn(0, "harvest", "green", json!({"do": "harvest"})),
        take(1, "family", "pink"),
        turn(0, "harvest", "orange", json!({"do": "harvest"})),
        take(1, "family", "brown"),
        turn(0, "harvest", "black", json!({"do": "harvest"})),
    ];
    let s = state_until(&game2(e));
    assert_eq!(s["players"][0]["grain"], json!(5));
}

/// H.11: "A coin replaces any one influence cube in any cost … Never grain, goods or time."
/// A coin for the church's brown is accepted; one for a green the stables' grain price lacks
/// is not, and Alice's coin does not stand in for that grain.
#[test]
fn h11_coins_replace_cubes_only() {
    let ok = game2(vec![turn(
        0,
        "church",
        "pink",
        json!({"do": "church", "member": {"gen": 1}, "pay": "brown", "coin_for": ["brown"]}),
    )]);
    assert_valid(&ok);
    let bad = game2(vec![turn(
        0,
        "crafts",
        "orange",
        json!({"do": "craft", "building": "stables", "good": "ox", "pay": "price", "coin_for": ["green"]}),
    )]);
    assert_invalid(&bad, 1, "bad_coin_substitution");
    let grain = game2(vec![turn(
        0,
        "crafts",
        "orange",
        json!({"do": "craft", "building": "stables", "good": "ox", "pay": "price"}),
    )]);
    assert_invalid(&grain, 1, "cannot_pay");
}

/// H.12: "Every sequence of the market day starts at the triggering player and goes
/// clockwise; a pass is final for that day, for the triggering player too."
#[test]
fn h12_pass_is_final() {
    let prefix: Vec<_> =
        fixture("worked-example-2p-round-1.json")["entries"].as_array().map(|a| a[1..7].to_vec()).unwrap_or_default();
    let mut e = prefix;
    e.push(json!({"type": "pass", "player": 1}));
    e.push(json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}));
    // Alice alone remains: her next sequence needs a legal sale; none, so the day ends: refill.
    e.push(json!({"type": "refill", "tiles": ["c07"]}));
    assert_valid(&example(e));
}

/// H.17: "Influence colours only (same or different), from the supply; if it is short, take
/// what is there." A plague cube named in the stage-2 privilege is refused.
#[test]
fn h17_privilege_cubes_are_influence() {
    let e = vec![turn(
        0,
        "council",
        "green",
        json!({"do": "council", "enter": {"gen": 1}, "pay": "green", "coin_for": ["green"],
        "privilege": {"stage": 1, "cubes": ["black", "green"]}}),
    )];
    assert_invalid(&game2(e), 1, "bad_privilege");
}

/// H.26: "On unless `setup.compensation` is `false`." Without the field, seat 1 of 2 has its
/// grain.
#[test]
fn h26_compensation_default_on() {
    assert_eq!(state_until(&game2(vec![]))["players"][1]["grain"], json!(1));
}

/// H.29: "Any own living member on the main board, church track included; not from the bag."
#[test]
fn h29_no_recall_from_the_bag() {
    let e = vec![
        turn(0, "church", "brown", json!({"do": "church", "member": {"gen": 1}, "pay": "brown"})),
        take(1, "harvest", "green"),
        turn(0, "family", "pink", json!({"do": "family", "recall": {"gen": 1, "at": "bag"}})),
    ];
    assert_invalid(&game2(e), 3, "member_not_found");
}

/// H.30: "Its 2 time are spent before the action; a passing from it is resolved at the end of
/// the turn." The member sent to the bag by the action can no longer die.
#[test]
fn h30_plague_death_after_the_action() {
    let mut c = synthetic();
    c["life_track"] = json!(2);
    // The action places the member at the church (bag); it then cannot die: a farm member dies.
    let log = log2(
        c,
        vec![populate1(), turn(0, "church", "black", json!({"do": "church", "member": {"gen": 1}, "pay": "time"}))],
    );
    let s = state(&log);
    let m = s["players"][0]["members"].as_array().cloned().unwrap_or_default();
    assert_eq!(m.iter().filter(|x| x["at"] == "bag").count(), 1);
    assert!(m.iter().filter(|x| x["at"] == "chronicle:farm").count() >= 1);
}

/// H.8: "Candidates are the visible members (farm + main board); among them the lowest
/// generation dies. No visible member: no death, the passing is spent."
#[test]
fn h8_no_visible_member_no_death() {
    let mut c = synthetic();
    c["life_track"] = json!(1);
    // Life track 1: every unit kills. Four gen-1 members; the plague alone kills 2.
    let log = log2(c, vec![populate1(), take(0, "harvest", "black")]);
    let s = state(&log);
    let m = s["players"][0]["members"].as_array().cloned().unwrap_or_default();
    assert_eq!(m.iter().filter(|x| x["at"] == "farm").count(), 2);
}

/// H.14: "The chronicle is full when no space of any category is free; a full category alone
/// triggers nothing." The member goes to a grave instead.
#[test]
fn h14_full_category_goes_to_a_grave() {
    let mut c = synthetic();
    c["life_track"] = json!(1);
    c["chronicle"]["farm"] = json!([""]);
    let log = log2(c, vec![populate1(), take(0, "harvest", "black")]);
    let s = state(&log);
    let m = s["players"][0]["members"].as_array().cloned().unwrap_or_default();
    assert_eq!(m.iter().filter(|x| x["at"] == "grave").count(), 1);
    assert_eq!(s["end_triggered"], json!(false));
}

/// E.2: the end trigger owes the other players a last turn (H.13, H.32, H.33 have their own
/// tests in `decisions_play`).
#[test]
fn e2_last_turns_after_the_trigger() {
    let mut c = synthetic();
    c["life_track"] = json!(1);
    c["graves"] = json!([""]);
    c["chronicle"] = json!({"farm": [""], "crafts": [], "council": ["marriage"], "travel": ["marriage"], "church": []});
    // Alice's plague kills two: the chronicle's only space fills (trigger), the second goes to the grave.
    let log = log2(c, vec![populate1(), take(0, "harvest", "black")]);
    let s = state_until(&log);
    let s2 = state(&log);
    assert_eq!(s2["end_triggered"], json!(true));
    let _ = s;
    assert_eq!(s2["last_turns_owed"], json!([]), "Bo's last turn is being played");
    assert_eq!(s2["to_move"], json!(1));
    assert_eq!(s2["phase"], json!("last_turn"));
}

/// A.8, H.15: the travel table ends at 6 cities (a colour has 6 discs).
#[test]
fn a8_travel_table_ends_at_six() {
    assert_eq!(chronicle_village::rules::scoring::travel_points(7), 18);
}
