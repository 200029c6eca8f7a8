//! `docs/rules/village.md` H.44 – H.47, one test each (table-driven where a decision names several cases):
//! which code an entry failing several checks gets, Carla's take after the end trigger, where
//! missing data first read by an automatic step fails, and an empty chronicle category.
//! Rare positions are set up by changing the state directly; each such test says what it
//! changes.

use chronicle_game::GameEngine;
use chronicle_village::Village;
use serde_json::{json, Value};

use crate::common::*;

/// The worked example with entry `i` replaced by `entry`.
fn example_with(i: usize, entry: Value) -> Value {
    let mut log = fixture("worked-example-2p-round-1.json");
    log["entries"][i] = entry;
    log
}

/// H.44: "When an entry fails several checks, the code is the one of the first check in this
/// order: envelope and format (G.1), the entry's kind where another kind is due
/// (`expected_populate`, `expected_mass`, `death_expected`, then G.3.8 `game_over`), the
/// player (G.3.1), then the entry's own checks in the order of G." Each row is an entry of the
/// worked example replaced by one failing two or more checks.
#[test]
fn h44_one_entry_failing_two_checks_takes_the_first_code() {
    let death = |p: usize| json!({"type": "death", "player": p, "member": {"gen": 1}});
    let mut populate2 = populate1();
    populate2["round"] = json!(2);
    let mass = json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]});
    let rows: [(usize, Value, &str); 11] = [
        // G.1 first: a player the game does not have, where the mass is due.
        (23, death(7), "unknown_id"),
        // The kind due: the populate and the mass win over the entry's own checks.
        (0, death(0), "expected_populate"),
        (0, mass.clone(), "expected_populate"),
        (23, death(1), "expected_mass"),
        (23, populate2.clone(), "expected_mass"),
        (23, take(0, "harvest", "pink"), "expected_mass"),
        (23, json!({"type": "carla", "space": "harvest", "cube": "green"}), "expected_mass"),
        // A death with a choice is due: any other entry is `death_expected`.
        (11, mass, "death_expected"),
        // The player (G.3.1) before the turn's own checks (G.3.3: no pink on the harvest).
        (2, take(0, "harvest", "pink"), "not_your_turn"),
        // A recorded outcome is due (the refill, G.3.9) before G.11.1 and G.12.1.
        (9, death(0), "expected_entry"),
        // G.2.1 before G.3.9.
        (9, populate2, "unexpected_populate"),
    ];
    for (i, entry, code) in rows {
        let log = example_with(i, entry.clone());
        assert_eq!(error(&log), Some((Some(i), code.to_owned())), "entry {i} = {entry}");
    }
}

/// H.44: "A turn written where the final mass is due is `expected_mass`; a turn after the final
/// mass is `game_over`." Where the golden solo game's final mass is due (generator removed, so
/// the mass must be written), a turn is `expected_mass`; after the golden 2-player game's final
/// mass, a turn, a mass and a death are each `game_over`.
#[test]
fn h44_turn_at_and_after_the_final_mass() {
    let t = json!({"type": "turn", "player": 0, "free": true});
    assert_eq!(play(&mut solo_before_final_mass(), std::slice::from_ref(&t)), Err("expected_mass".to_owned()));
    let mut log = fixture("synthetic-2p-complete.json");
    log.as_object_mut().map(|o| o.remove("claimed"));
    let n = log["entries"].as_array().map_or(0, Vec::len);
    assert_eq!(log["entries"][n - 1]["type"], json!("mass"));
    for extra in [t, json!({"type": "mass"}), json!({"type": "death", "player": 0, "member": {"gen": 2}})] {
        let mut after = log.clone();
        if let Some(e) = after["entries"].as_array_mut() {
            e.push(extra.clone());
        }
        assert_invalid(&after, n, "game_over");
    }
}

/// The golden solo game (seeded) just before its final mass, with the generator removed so
/// that the mass entry must be written (changed state: `rng` set to `None`).
fn solo_before_final_mass() -> chronicle_village::Game {
    let log = fixture("synthetic-solo-complete.json");
    let n = log["entries"].as_array().and_then(|a| a.iter().rposition(|e| e["type"] == "mass")).unwrap_or(0);
    let mut part = log.clone();
    part["entries"] = json!(log["entries"].as_array().map(|a| a[..n].to_vec()).unwrap_or_default());
    part.as_object_mut().map(|o| o.remove("claimed"));
    let mut g = game_at(&part);
    g.rng = None;
    g
}

/// H.45: "A `carla` take written after the end was triggered fails at that entry with the code
/// of the entry that is due there (usually `expected_mass`); `carla_not_due` stays the code of
/// a take after a well turn." Where the final mass is due (no generator: it must be written),
/// a take is `expected_mass`; in the seeded golden log the final mass runs on its own and a
/// take after it is `game_over` (H.23's test); after a well turn it is `carla_not_due`.
#[test]
fn h45_carla_take_after_end_trigger_is_expected_mass() {
    let g = solo_before_final_mass();
    assert!(view(&g)["end_triggered"] == json!(true));
    let late = json!({"type": "carla", "space": "harvest", "cube": "orange"});
    assert_eq!(play(&mut g.clone(), std::slice::from_ref(&late)), Err("expected_mass".to_owned()));
    // The mass itself is still accepted there.
    let monks = json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]});
    let mut done = g.clone();
    assert_eq!(play(&mut done, &[monks]), Ok(()));
    assert_eq!(play(&mut done, &[late]), Err("game_over".to_owned()));
    // A take after a well turn, before the trigger.
    let well = json!({"type": "turn", "player": 0, "well": {"color": "green"}, "action": {"do": "harvest"}});
    let mut g = game_at(&crate::solo::solo(vec![populate1(), take(0, "harvest", "green")]));
    g.players[0].cubes.add(chronicle_village::ids::Cube::Green, 3);
    let carla = json!({"type": "carla", "space": "market", "cube": "green"});
    let sale = json!({"type": "sale", "player": "carla", "customer": "c04"});
    let refill = json!({"type": "refill", "tiles": ["c02"]});
    let after_well = [carla, sale, refill, well, json!({"type": "carla", "space": "family", "cube": "pink"})];
    assert_eq!(play(&mut g, &after_well), Err("carla_not_due".to_owned()));
}

/// The worked example up to its entry `n` (exclusive) with customer `c04`'s data removed: in
/// the market day of entries 6–8, after Alice's sale, Bo is to decide again and can serve
/// nobody but c04 — the engine's automatic pass reads c04's wants.
fn market_without_c04(n: usize) -> Value {
    let mut log = fixture("worked-example-2p-round-1.json");
    log["setup"]["components"]["customers"].as_object_mut().map(|c| c.remove("c04"));
    let entries = log["entries"].as_array().map(|a| a[..n].to_vec()).unwrap_or_default();
    log["entries"] = json!(entries);
    log
}

/// H.46: "A step the engine performs by itself (the market day's automatic passes, the deaths at
/// end of turn, final scoring) counts as needing the data it reads; missing data fails at the
/// index of the entry after which that step runs (the number of entries if it runs after the
/// last)." Bo's automatic pass after entry 8 reads c04: the refill (entry 9) is where it fails;
/// a log ending after entry 8 fails at 9, its length. Without the pass (c04 served data kept),
/// both are valid.
#[test]
fn h46_data_first_needed_by_an_automatic_step() {
    for (n, at) in [(10, 9), (9, 9), (24, 9)] {
        assert_eq!(error(&market_without_c04(n)), Some((Some(at), "missing_component_data".to_owned())), "{n}");
    }
    // The entries up to the sale need no c04 data.
    let r = Village::replay_until(market_without_c04(24).to_string().as_bytes(), 9);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(error(&fixture("worked-example-2p-round-1.json")).is_none());
}

/// H.47: "A category may declare 0 spaces; it is then always full, and a member of that
/// category who dies goes to a grave as C.7 step 2 says for a full category." The worked
/// example with no `crafts` space: Alice's blacksmith (entry 11) goes to a grave, and the other
/// categories still count for the chronicle being full (H.14: no end trigger).
#[test]
fn h47_empty_chronicle_category_is_always_full() {
    let mut log = fixture("worked-example-2p-round-1.json");
    log["setup"]["components"]["chronicle"]["crafts"] = json!([]);
    let s = state_until(&log);
    let alice = &s["players"][0];
    assert_eq!((count_at(alice, "chronicle:crafts"), count_at(alice, "grave")), (0, 1));
    assert_eq!(s["chronicle_free"]["crafts"], json!(0));
    assert_eq!(s["end_triggered"], json!(false));
    // With its spaces the same death goes to the chronicle (the fixture as it is).
    let s = state_until(&fixture("worked-example-2p-round-1.json"));
    assert_eq!(count_at(&s["players"][0], "chronicle:crafts"), 1);
}
