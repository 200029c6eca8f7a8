//! `docs/rules/village.md` H decisions of the multiplayer game not pinned in `decisions.rs`, one test each.
//! Positions the rules reach only after many turns are set up by changing the state of a
//! short game directly (`common::game_at`); each such test says what it changes.

use chronicle_village::game::Loc;
use chronicle_village::ids::{Cube, Good};
use chronicle_village::rules::scoring::{self, TieBreak};
use serde_json::{json, Value};

use crate::common::*;

fn worked(from: usize, to: usize) -> Vec<Value> {
    let log = fixture("worked-example-2p-round-1.json");
    log["entries"].as_array().map(|a| a[from..to].to_vec()).unwrap_or_default()
}

fn players(n: usize) -> Vec<Value> {
    let colors = ["blue", "red", "white", "yellow", "purple"];
    (0..n)
        .map(|i| match i {
            2 | 3 => json!({"name": i.to_string(), "color": colors[i], "start_cube": "pink"}),
            _ => json!({"name": i.to_string(), "color": colors[i]}),
        })
        .collect()
}

fn display(stalls: usize) -> Value {
    let all: Vec<String> = (1..=24).map(|i| format!("c{i:02}")).collect();
    json!({"stalls": all[..stalls].to_vec(), "queue": all[stalls..stalls + 5].to_vec()})
}

/// H.1: "Base game for 2–5 players, solo for 1." A 5-player base game is set up (seat 4's
/// extra coin); 6 players, or 1 player without `solo`, are refused.
#[test]
fn h1_five_players_in_the_base_game() {
    let log = json!({"format": "village-log/1", "setup": {"players": players(5), "components": synthetic(),
        "customers": display(5)}, "entries": []});
    let s = state_until(&log);
    assert_eq!(s["players"][4]["coins"], json!(2));
    let mut six = players(5);
    six.push(json!({"name": "5", "color": "red"}));
    let bad = json!({"format": "village-log/1", "setup": {"players": six, "components": synthetic(),
        "customers": display(5)}, "entries": []});
    assert_eq!(error(&bad), Some((None, "bad_setup".to_owned())));
    let one = json!({"format": "village-log/1", "setup": {"players": players(1), "components": synthetic(),
        "customers": display(3)}, "entries": []});
    assert_eq!(error(&one), Some((None, "bad_setup".to_owned())));
}

/// H.3: "empty stalls fill lowest first from the queue head; queue tiles slide forward keeping
/// order; customers left in stalls stay." Only stall 2 is served: the queue head fills it,
/// stall 3 keeps its tile, the queue slides and one new tile fills its last space.
#[test]
fn h3_refill_geometry() {
    let mut e = worked(1, 7);
    e.push(json!({"type": "sale", "player": 1, "customer": "c09"}));
    e.push(json!({"type": "pass", "player": 0}));
    e.push(json!({"type": "refill", "tiles": ["c07"]}));
    let s = state_until(&example(e));
    assert_eq!(s["market"]["stalls"], json!(["c04", "c01", "c15"]));
    assert_eq!(s["market"]["queue"], json!(["c12", "c18", "c20", "c23", "c07"]));
}

/// H.5: "a crafts action produces exactly one good; training is only the first step of paying
/// with time." Training and producing at the blacksmith cost 3 + 3 time for one plough;
/// training with the price is refused.
#[test]
fn h5_training_only_with_producing() {
    let s = state_until(&example(worked(1, 2)));
    assert_eq!((s["players"][0]["time"].clone(), s["players"][0]["goods"]["plough"].clone()), (json!(6), json!(1)));
    let bad = turn(
        0,
        "crafts",
        "orange",
        json!({"do": "craft", "building": "blacksmith", "pay": "price", "train": {"gen": 1}}),
    );
    assert_invalid(&example(vec![bad]), 1, "bad_craft");
}

/// H.7: "Base game: every unit is paid in grain." Bo's member moves from church stage 1 to 3
/// for G2 + G3 = 1 + 1 grain (the example's values), his last 2.
#[test]
fn h7_church_steps_paid_in_grain() {
    let mut e = worked(1, 23);
    e.push(json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
        "promote": [{"player": 1, "moves": [{"gen": 1, "from": 1, "to": 3}]}]}));
    let s = state_until(&example(e));
    assert_eq!(s["players"][1]["grain"], json!(0));
    assert_eq!(count_at(&s["players"][1], "church:3"), 1);
}

/// The worked example with one free chronicle space (farm) and a life track of 7: Alice's
/// paid sale in Bo's market day (t 6 → 7) kills a member at once, who fills the chronicle.
fn trigger_in_bos_market_day() -> Value {
    let mut e = worked(1, 7);
    e.push(json!({"type": "sale", "player": 1, "customer": "c09"}));
    e.push(json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}));
    e.push(json!({"type": "death", "player": 0, "member": {"gen": 1}}));
    e.push(json!({"type": "refill", "tiles": ["c07", "c22"]}));
    let mut log = example(e);
    let c = &mut log["setup"]["components"];
    c["life_track"] = json!(7);
    c["chronicle"] =
        json!({"farm": [""], "crafts": ["5"], "council": ["marriage"], "travel": ["marriage"], "church": ["5"]});
    log
}

/// H.13: "After the market day, every player gets one last turn, clockwise from the left of the
/// market-day player, who acts last." Alice triggers the end in Bo's market day: Alice (left of
/// Bo) plays next, then Bo, then the final mass.
#[test]
fn h13_trigger_in_another_players_market_day() {
    let log = trigger_in_bos_market_day();
    let s = state_until(&log);
    assert_eq!(s["end_triggered"], json!(true));
    assert_eq!(count_at(&s["players"][0], "chronicle:farm"), 1);
    assert_eq!((s["to_move"].clone(), s["last_turns_owed"].clone()), (json!(0), json!([1])));
    let mut more = log.clone();
    if let Some(a) = more["entries"].as_array_mut() {
        a.push(take(0, "harvest", "orange"));
        a.push(take(1, "harvest", "black"));
    }
    assert_eq!(state_until(&more)["phase"], json!("final_mass"));
}

/// H.16: "Uses the highest stage among your members; the stage-4 privilege still costs its
/// coin." Changed state: Alice's second gen-1 member is put on stage 4 beside her stage-1
/// member. A privilege alone then reaches stage 4 and pays its coin; without a coin it fails.
#[test]
fn h16_privilege_only_uses_the_highest_stage() {
    let enter = json!({"do": "council", "enter": {"gen": 1}, "pay": "green", "coin_for": ["green"]});
    let log = game2(vec![
        take(0, "council", "green"),
        take(1, "harvest", "green"),
        turn(0, "council", "green", enter),
        take(1, "harvest", "orange"),
    ]);
    let only = turn(0, "council", "brown", json!({"do": "council", "privilege": {"stage": 4}}));
    let mut g = game_at(&log);
    assert_eq!(play(&mut g.clone(), std::slice::from_ref(&only)), Err("privilege_too_high".to_owned()));
    assert!(g.players[0].relocate(1, Loc::Farm, Loc::Council(4)));
    assert_eq!(play(&mut g.clone(), std::slice::from_ref(&only)), Err("cannot_pay".to_owned()));
    g.players[0].coins = 1;
    assert_eq!(play(&mut g, &[only]), Ok(()));
    let p = &view(&g)["players"][0];
    assert_eq!((p["coins"].clone(), p["provisional_score"]["rows"]["track_council"].clone()), (json!(0), json!(3)));
}

/// The worked example at its mass with changed state: Alice has 3 gen-1 members in the bag
/// and 3 coins, Bo 2 in the bag and 2 coins.
fn at_the_mass_with_buyers() -> chronicle_village::Game {
    let mut g = game_at(&example(worked(1, 23)));
    assert!(g.players[0].relocate(1, Loc::Farm, Loc::Bag) && g.players[0].relocate(1, Loc::Farm, Loc::Bag));
    assert!(g.players[1].relocate(1, Loc::Farm, Loc::Bag));
    g.players[0].coins = 3;
    g.players[1].coins = 2;
    g
}

/// H.19: "One opportunity per player, clockwise from the first player; buys stop at 4 in
/// total." Alice (first player) buys 3 and Bo 1, listed in either order: 4 members on stage 1,
/// no draw. Five in all, or a player listed twice, is refused.
#[test]
fn h19_mass_buying() {
    let mut g = at_the_mass_with_buyers();
    let buy = json!({"type": "mass", "buy": [{"player": 1, "gens": [1]}, {"player": 0, "gens": [1, 1, 1]}]});
    assert_eq!(play(&mut g, &[buy]), Ok(()));
    let s = view(&g);
    assert_eq!((count_at(&s["players"][0], "church:1"), count_at(&s["players"][1], "church:1")), (3, 1));
    assert_eq!((s["players"][0]["coins"].clone(), s["players"][1]["coins"].clone()), (json!(0), json!(1)));
    let five = json!({"type": "mass", "buy": [{"player": 0, "gens": [1, 1, 1]}, {"player": 1, "gens": [1, 1]}]});
    assert_eq!(play(&mut at_the_mass_with_buyers(), &[five]), Err("mass_buy".to_owned()));
    let twice = json!({"type": "mass", "buy": [{"player": 0, "gens": [1]}, {"player": 0, "gens": [1]}],
        "draw": ["monk", "monk"]});
    assert_eq!(play(&mut at_the_mass_with_buyers(), &[twice]), Err("mass_buy".to_owned()));
}

/// H.20: "Members on the farm, on the main board and in the black bag. If still tied, the tied
/// players share the victory." Changed state of the complete 2-player game: equal grain and
/// equal living members share the win; one of player 1's living members moved to the reserve
/// (not alive) gives player 0 the win; moved into the bag instead (alive), the win is shared.
#[test]
fn h20_living_members_break_ties() {
    let log = fixture("synthetic-2p-complete.json");
    let mut g = replay(&log).game.expect("complete game");
    g.players[0].grain = 2;
    g.players[1].grain = 2;
    let alive = |l: Loc| l.visible() || l == Loc::Bag;
    while g.players[0].living() != g.players[1].living() {
        let more = usize::from(g.players[1].living() > g.players[0].living());
        let m = g.players[more].members.iter_mut().find(|m| alive(m.loc)).expect("a living member");
        m.loc = Loc::Removed;
    }
    assert_eq!(scoring::winners(&g, &[50, 50]), (vec![0, 1], TieBreak::Shared));
    let m = g.players[1].members.iter_mut().find(|m| alive(m.loc)).expect("a living member");
    m.loc = Loc::Reserve;
    assert_eq!(scoring::winners(&g, &[50, 50]), (vec![0], TieBreak::LivingMembers));
    let m = g.players[1].members.iter_mut().find(|m| m.loc == Loc::Reserve).expect("a reserve member");
    m.loc = Loc::Bag;
    assert_eq!(scoring::winners(&g, &[50, 50]), (vec![0, 1], TieBreak::Shared));
    assert_eq!(scoring::winners(&g, &[50, 49]), (vec![0], TieBreak::Total));
}

/// H.27: "Seat 0 of the log." Seat 0 moves first in round 1 with any player count.
#[test]
fn h27_seat_0_is_first_player() {
    for n in [2, 3, 5] {
        let mut seats = players(n);
        if n > 2 {
            seats[2].as_object_mut().map(|o| o.remove("start_cube"));
        }
        let log = json!({"format": "village-log/1", "setup": {"players": seats, "components": synthetic(),
            "seed": 3}, "entries": []});
        let s = state(&log);
        assert_eq!((s["first_player"].clone(), s["to_move"].clone()), (json!(0), json!(0)), "{n} players");
    }
}

/// H.28: "each space ≤ its count; shortfall allowed only if the bag ends empty." Changed state:
/// the supply holds no influence cube when round 2 begins, so the bag has only round 1's
/// leftovers (2 orange, green, brown, pink, 3 plague) and the 3 plague cubes of the supply:
/// 11 cubes for 18 places. Placing all 11 is legal; keeping one back is `populate_count`.
#[test]
fn h28_short_bag_at_populate() {
    let mut g = game_at(&example(worked(1, 24)));
    assert_eq!(view(&g)["green_bag"], json!({"orange": 2, "green": 1, "brown": 1, "pink": 1, "black": 3}));
    let spare = g.supply;
    for c in Cube::ALL.iter().filter(|c| c.is_influence()) {
        let n = spare.get(*c);
        g.supply.take(*c, n);
        g.players[0].cubes.add(*c, n);
    }
    let all = json!({"harvest": ["orange", "orange", "green"], "family": ["brown", "pink"],
        "crafts": ["black", "black", "black", "black"], "market": ["black"], "travel": ["black"],
        "council": [], "church": []});
    let mut ok = g.clone();
    assert_eq!(play(&mut ok, &[json!({"type": "populate", "round": 2, "spaces": all.clone()})]), Ok(()));
    let s = view(&ok);
    assert_eq!((s["green_bag"].clone(), s["board"]["church"].clone()), (json!({}), json!({})));
    assert_eq!(s["board"]["crafts"], json!({"black": 4}));
    let mut one_back = all;
    one_back["travel"] = json!([]);
    let entry = json!({"type": "populate", "round": 2, "spaces": one_back});
    assert_eq!(play(&mut g, &[entry]), Err("populate_count".to_owned()));
}

/// The h13 game's state before Bo's last turn, and the same with the board emptied (changed
/// state: every cube on the board returned to the supply).
pub(crate) fn last_turn(empty_board: bool) -> chronicle_village::Game {
    let mut log = trigger_in_bos_market_day();
    if let Some(a) = log["entries"].as_array_mut() {
        a.push(take(0, "harvest", "orange"));
    }
    let mut g = game_at(&log);
    if empty_board {
        for space in g.board.iter_mut() {
            for &c in Cube::ALL.iter() {
                let n = space.get(c);
                space.take(c, n);
                g.supply.add(c, n);
            }
        }
    }
    g
}

/// H.31: "The well turn must name and perform an action."
#[test]
fn h31_well_needs_an_action() {
    let well = |action: Option<Value>| {
        let mut t = json!({"type": "turn", "player": 0, "well": {"color": "green", "coins": 1}});
        if let Some(a) = action {
            t["action"] = a;
        }
        t
    };
    let prefix = vec![take(0, "council", "green"), take(1, "harvest", "green"), take(0, "council", "green")];
    let mut e = prefix.clone();
    e.push(take(1, "harvest", "orange"));
    e.push(well(None));
    assert_invalid(&game2(e), 5, "well_needs_action");
    let mut e = prefix;
    e.push(take(1, "harvest", "orange"));
    e.push(well(Some(json!({"do": "harvest"}))));
    assert_valid(&game2(e));
}

/// H.32: "Any of the seven actions, or none." On an emptied board Bo's last turn is free:
/// an action or none; a take is refused.
#[test]
fn h32_free_last_action() {
    let free = |action: Option<Value>| {
        let mut t = json!({"type": "turn", "player": 1, "free": true});
        if let Some(a) = action {
            t["action"] = a;
        }
        t
    };
    let mut g = last_turn(true);
    assert_eq!(play(&mut g, &[free(Some(json!({"do": "family"})))]), Ok(()));
    assert_eq!(view(&g)["phase"], json!("final_mass"));
    assert_eq!(count_at(&view(&g)["players"][1], "farm"), 4);
    assert_eq!(play(&mut last_turn(true), &[free(None)]), Ok(()));
    assert_eq!(play(&mut last_turn(true), &[take(1, "harvest", "black")]), Err("cube_not_on_space".to_owned()));
}

/// H.33: "A last turn with cubes on the board is a normal turn: a cube (or the well) must be
/// taken; the action is optional."
#[test]
fn h33_last_turn_takes_a_cube() {
    let free = json!({"type": "turn", "player": 1, "free": true, "action": {"do": "family"}});
    assert_eq!(play(&mut last_turn(false), &[free]), Err("free_not_allowed".to_owned()));
    let mut g = last_turn(false);
    assert_eq!(play(&mut g, &[take(1, "harvest", "black")]), Ok(()));
    assert_eq!(view(&g)["phase"], json!("final_mass"));
}

/// H.36: "No default: `components.council_time` is required for an advance." Changed state:
/// Alice's member on stage 1 with 2 green; the advance costs T2 = 2 time (synthetic table)
/// and fails without the table.
#[test]
fn h36_council_advance_needs_its_time() {
    let advance =
        turn(0, "council", "green", json!({"do": "council", "advance": {"gen": 1, "at": "council:1"}, "pay": "green"}));
    let setup = |c: Value| {
        let mut g = game_at(&log2(c, vec![populate1()]));
        assert!(g.players[0].relocate(1, Loc::Farm, Loc::Council(1)));
        g.players[0].cubes.add(Cube::Green, 1);
        g
    };
    let mut g = setup(synthetic());
    assert_eq!(play(&mut g, std::slice::from_ref(&advance)), Ok(()));
    assert_eq!(view(&g)["players"][0]["time"], json!(2));
    assert_eq!(count_at(&view(&g)["players"][0], "council:2"), 1);
    let mut c = synthetic();
    c.as_object_mut().map(|o| o.remove("council_time"));
    assert_eq!(play(&mut setup(c), &[advance]), Err("missing_component_data".to_owned()));
}

/// H.40: "The 24 tiles are `c01` … `c24`." A display naming `c25` is refused at the setup.
#[test]
fn h40_customer_ids() {
    let mut log = game2(vec![]);
    log["setup"]["customers"]["queue"][4] = json!("c25");
    assert_eq!(error(&log).map(|e| e.0), Some(None));
    assert_eq!(error(&log).map(|e| e.1), Some("unknown_id".to_owned()));
    log["setup"]["customers"]["queue"][4] = json!("c24");
    assert!(error(&log).is_none());
}

/// H.15: "A colour places at most 6 discs; a move to an unvisited city with no disc left gives
/// no reward." Changed state: Alice's six discs stand on every city but `north`, and she holds
/// a wagon; departing to `north` (3 PP) places nothing and gains nothing.
#[test]
fn h15_no_reward_without_a_disc() {
    let mut g = game_at(&game2(vec![]));
    let cities = g.components().travel.as_ref().expect("travel map").cities();
    let north = cities.iter().position(|c| c.id == "north").expect("north");
    g.players[0].discs = (0..cities.len()).filter(|&c| c != north).collect();
    assert_eq!(g.players[0].discs.len(), 6);
    g.players[0].goods[Good::Wagon.index()] = 1;
    g.players[0].cubes.add(Cube::Brown, 1);
    let depart = turn(0, "travel", "brown", json!({"do": "travel", "member": {"gen": 1}, "to": "north"}));
    assert_eq!(play(&mut g, &[depart]), Ok(()));
    let p = &view(&g)["players"][0];
    assert_eq!(count_at(p, "city:north"), 1);
    assert_eq!(p["provisional_score"]["rows"]["track_travel"], json!(0));
    assert_eq!(p["cities"].as_array().map(Vec::len), Some(6));
    assert!(p["cities"].as_array().is_some_and(|c| !c.contains(&json!("north"))));
}
