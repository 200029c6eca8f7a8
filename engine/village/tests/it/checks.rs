//! `docs/rules/village.md` G checks whose code other checks share and which the other suites do not reach
//! on their own, one row per check: the check's id, the log (or changed state) and the code.

use chronicle_village::game::Loc;
use chronicle_village::ids::{Cube, Good};
use serde_json::{json, Value};

use crate::common::*;
use crate::solo::solo;

fn mass(m: Value) -> Value {
    let log = fixture("worked-example-2p-round-1.json");
    let mut e: Vec<Value> = log["entries"].as_array().map(|a| a[1..23].to_vec()).unwrap_or_default();
    e.push(m);
    example(e)
}

fn die_solo(entries: Vec<Value>) -> Value {
    let mut log = solo(entries);
    log["setup"]["solo"]["carla_rule"] = json!("die");
    log
}

/// Travel to `south` (cubes reward) with the path paid by changed state: a wagon, an orange.
fn south(reward: Value) -> Option<String> {
    let mut g = game_at(&game2(vec![]));
    g.players[0].goods[Good::Wagon.index()] = 1;
    g.players[0].cubes.add(Cube::Orange, 1);
    let mut action = json!({"do": "travel", "member": {"gen": 1}, "to": "south"});
    if !reward.is_null() {
        action["reward"] = reward;
    }
    play(&mut g, &[turn(0, "travel", "pink", action)]).err()
}

/// The stage-2 privilege naming `cubes` (changed state: Alice on council stage 2, the supply's
/// influence cubes moved to Bo's farm but `left` oranges).
fn privilege_2(cubes: Value, left: Option<u32>) -> Option<String> {
    let mut g = game_at(&game2(vec![]));
    g.players[0].relocate(1, Loc::Farm, Loc::Council(2));
    if let Some(left) = left {
        for &c in Cube::ALL.iter().filter(|c| c.is_influence()) {
            let keep = if c == Cube::Orange { left } else { 0 };
            let n = g.supply.get(c) - keep;
            g.supply.take(c, n);
            g.players[1].cubes.add(c, n);
        }
    }
    let action = json!({"do": "council", "privilege": {"stage": 2, "cubes": cubes}});
    play(&mut g, &[turn(0, "council", "green", action)]).err().or(Some("ok".into()))
}

/// Each row: a G check, what the engine says, the code the check gives.
#[test]
fn g_checks_sharing_a_code() {
    let enter_without_farm = {
        let mut g = game_at(&game2(vec![]));
        for m in g.players[0].members.iter_mut().filter(|m| m.loc == Loc::Farm) {
            m.loc = Loc::Bag;
        }
        g.players[0].coins = 2;
        let enter = json!({"do": "council", "enter": {"gen": 1}, "pay": "green", "coin_for": ["green", "green"]});
        play(&mut g, &[turn(0, "council", "green", enter)]).err()
    };
    let carla_after_well = {
        let mut g = game_at(&solo(vec![populate1()]));
        g.players[0].cubes.add(Cube::Green, 3);
        g.supply.take(Cube::Green, 3);
        let well = json!({"type": "turn", "player": 0, "well": {"color": "green"}, "action": {"do": "harvest"}});
        play(&mut g, &[well, json!({"type": "carla", "space": "harvest", "cube": "green"})]).err()
    };
    let last_roll_absent = {
        let mut g = game_at(&die_solo(vec![populate1(), take(0, "harvest", "green")]));
        for space in g.board.iter_mut() {
            let n = space.get(Cube::Pink);
            space.take(Cube::Pink, n);
            g.supply.add(Cube::Pink, n);
        }
        play(&mut g, &[json!({"type": "carla", "rolls": ["pink"], "space": "harvest", "cube": "orange"})]).err()
    };
    let rows: Vec<(&str, Option<String>, &str)> = vec![
        ("G.8.1 enter needs a member on the farm", enter_without_farm, "member_not_found"),
        ("G.8.4 stage 2 names 2 influence colours", privilege_2(json!(["pink"]), None), "bad_privilege"),
        ("G.8.4 … 2, not 3", privilege_2(json!(["pink", "pink", "green"]), None), "bad_privilege"),
        ("G.4.3 a short supply gives what is left", privilege_2(json!(["orange"]), Some(1)), "ok"),
        ("G.4.3 … and no more", privilege_2(json!(["orange", "orange"]), Some(1)), "supply_empty"),
        ("G.4.3 … nothing when empty", privilege_2(json!([]), Some(0)), "ok"),
        ("G.9.3 a cubes reward names 2 colours", south(json!({"cubes": ["green"]})), "bad_reward"),
        ("G.9.3 … influence colours", south(json!({"cubes": ["green", "black"]})), "bad_reward"),
        ("G.9.3 … and is given", south(Value::Null), "bad_reward"),
        (
            "G.9.3 south with 2 influence colours is fine",
            south(json!({"cubes": ["green", "pink"]})).or(Some("ok".into())),
            "ok",
        ),
        (
            "G.12.4 one promotion opportunity per player",
            error(&mass(json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
                "promote": [{"player": 1, "moves": [{"gen": 1, "from": 1, "to": 2}]},
                            {"player": 1, "moves": [{"gen": 1, "from": 2, "to": 3}]}]})))
            .map(|e| e.1),
            "promote_invalid",
        ),
        (
            "G.12.4 stage ≤ 4",
            error(&mass(json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
                "promote": [{"player": 1, "moves": [{"gen": 1, "from": 1, "to": 5}]}]})))
            .map(|e| e.1),
            "promote_invalid",
        ),
        ("G.13.1 no Carla cube after a well turn", carla_after_well, "carla_not_due"),
        ("G.13.2 the last roll names a colour on the board", last_roll_absent, "carla_roll_wrong"),
    ];
    for (check, got, code) in rows {
        assert_eq!(got.as_deref(), Some(code), "{check}");
    }
}
