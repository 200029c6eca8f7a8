//! Every stable error code (`docs/log-format-village.md` "Replay result", `docs/rules/village.md` G) is reachable: for
//! each code of `ErrorCode::ALL` a log, or a short game whose state is changed directly where
//! the rules take long to get there, that fails with exactly that code. A new code without a
//! row here fails the test.

use chronicle_village::game::Loc;
use chronicle_village::ids::{Cube, Good};
use chronicle_village::ErrorCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::decisions_play::last_turn;
use crate::solo::{solo, three_turns};

/// The code of a replay of `log`.
fn code(log: &Value) -> Option<String> {
    error(log).map(|e| e.1)
}

/// The code of `entries` played on the game after `log`, its state changed by `change`.
fn code_after(log: &Value, change: impl FnOnce(&mut chronicle_village::Game), entries: &[Value]) -> Option<String> {
    let mut g = game_at(log);
    change(&mut g);
    play(&mut g, entries).err()
}

fn with_entries(name: &str, from: usize, to: usize, tail: Vec<Value>) -> Value {
    let log = fixture(name);
    let mut e: Vec<Value> = log["entries"].as_array().map(|a| a[from..to].to_vec()).unwrap_or_default();
    e.extend(tail);
    example(e)
}

fn market(tail: Vec<Value>) -> Value {
    with_entries("worked-example-2p-round-1.json", 1, 7, tail)
}

fn mass(m: Value) -> Value {
    with_entries("worked-example-2p-round-1.json", 1, 23, vec![m])
}

/// Alice's member on council stage `stage`, her turn, a council cube on the board.
fn council_member(stage: u8) -> impl FnOnce(&mut chronicle_village::Game) {
    move |g| {
        g.players[0].relocate(1, Loc::Farm, Loc::Council(stage));
    }
}

fn reach(code_id: &str) -> Option<String> {
    let craft = |a: Value| game2(vec![turn(0, "crafts", "orange", a)]);
    match code_id {
        "log_too_large" => {
            let big = vec![b' '; chronicle_village::replay::MAX_LOG_BYTES + 1];
            chronicle_village::replay(&big).error.map(|e| e.code.as_str().to_owned())
        }
        "malformed_json" => chronicle_village::replay(b"{").error.map(|e| e.code.as_str().to_owned()),
        "malformed" => chronicle_village::replay(b"[]").error.map(|e| e.code.as_str().to_owned()),
        "bad_format" => code(&json!({"format": "village-log/2", "setup": {}, "entries": []})),
        "unknown_field" => {
            let mut log = game2(vec![]);
            log["bogus"] = json!(1);
            code(&log)
        }
        "bad_setup" => {
            let mut log = game2(vec![]);
            log["setup"]["players"][1]["color"] = json!("blue");
            code(&log)
        }
        "missing_component_data" => {
            let mut c = synthetic();
            c.as_object_mut().map(|o| o.remove("training"));
            let a = json!({"do": "craft", "building": "office", "pay": "time", "train": {"gen": 1}});
            code(&log2(c, vec![populate1(), turn(0, "crafts", "pink", a)]))
        }
        "unknown_id" => code(&game2(vec![take(0, "moon", "green")])),
        "bad_components" => {
            let mut c = synthetic();
            c["council_time"]["2"] = json!(5);
            code(&log2(c, vec![]))
        }
        "expected_populate" => code(&log2(synthetic(), vec![take(0, "harvest", "green")])),
        "unexpected_populate" => code(&game2(vec![populate1()])),
        "populate_count" => {
            let mut p = populate1();
            p["spaces"]["market"] = json!(["green", "green"]);
            code(&log2(synthetic(), vec![p]))
        }
        "populate_not_in_bag" => {
            let mut p = populate1();
            p["spaces"]["harvest"] = json!(["black", "black", "black"]);
            p["spaces"]["church"] = json!(["black", "black", "black"]);
            p["spaces"]["crafts"] = json!(["black", "black", "black", "black"]);
            code(&log2(synthetic(), vec![p]))
        }
        "not_your_turn" => code(&game2(vec![take(1, "harvest", "green")])),
        "bad_turn" => code(&game2(vec![json!({"type": "turn", "player": 0})])),
        "cube_not_on_space" => code(&game2(vec![take(0, "family", "green")])),
        "wrong_action" => code(&game2(vec![turn(0, "harvest", "green", json!({"do": "family"}))])),
        "market_must_be_held" => code(&game2(vec![take(0, "market", "green")])),
        "well_board_empty" => {
            let well = json!({"type": "turn", "player": 1, "well": {"color": "green"}, "action": {"do": "harvest"}});
            play(&mut last_turn(true), &[well]).err()
        }
        "well_needs_action" => code(&game2(vec![json!({"type": "turn", "player": 0, "well": {"color": "green"}})])),
        "free_not_allowed" => code(&game2(vec![json!({"type": "turn", "player": 0, "free": true})])),
        "game_over" => {
            let mut log = fixture("synthetic-2p-complete.json");
            if let Some(e) = log["entries"].as_array_mut() {
                e.push(take(0, "harvest", "green"));
            }
            code(&log)
        }
        "expected_entry" => {
            let mut e = three_turns("blank");
            e[7] = take(0, "harvest", "orange");
            code(&solo(e))
        }
        "cannot_pay" => {
            code(&game2(vec![turn(0, "church", "pink", json!({"do": "church", "member": {"gen": 1}, "pay": "brown"}))]))
        }
        "bad_coin_substitution" => code(&craft(
            json!({"do": "craft", "building": "stables", "good": "ox", "pay": "price", "coin_for": ["green"]}),
        )),
        "supply_empty" => {
            let privilege = turn(
                0,
                "council",
                "green",
                json!({"do": "council", "privilege": {"stage": 2, "cubes": ["pink", "pink"]}}),
            );
            let empty_pink = |g: &mut chronicle_village::Game| {
                council_member(2)(g);
                let n = g.supply.get(Cube::Pink);
                g.supply.take(Cube::Pink, n);
                g.players[1].cubes.add(Cube::Pink, n);
            };
            code_after(&game2(vec![]), empty_pink, &[privilege])
        }
        "no_member_on_farm" => code_after(
            &game2(vec![]),
            |g| {
                for m in g.players[0].members.iter_mut().filter(|m| m.loc == Loc::Farm) {
                    m.loc = Loc::Bag;
                }
            },
            &[turn(0, "harvest", "green", json!({"do": "harvest"}))],
        ),
        "reserve_empty" => code_after(
            &game2(vec![]),
            |g| {
                for m in g.players[0].members.iter_mut().filter(|m| m.loc == Loc::Reserve) {
                    m.loc = Loc::Removed;
                }
            },
            &[turn(0, "family", "pink", json!({"do": "family"}))],
        ),
        "member_not_found" => {
            code(&game2(vec![turn(0, "travel", "brown", json!({"do": "travel", "member": {"gen": 3}, "to": "north"}))]))
        }
        "bad_good" => code(&craft(json!({"do": "craft", "building": "stables", "good": "scroll", "pay": "price"}))),
        "not_trained" => code(&craft(json!({"do": "craft", "building": "blacksmith", "pay": "time"}))),
        "bad_craft" => {
            code(&craft(json!({"do": "craft", "building": "blacksmith", "pay": "price", "train": {"gen": 1}})))
        }
        "no_market_day" => code(&example(vec![json!({"type": "pass", "player": 0})])),
        "not_your_market_turn" => code(&market(vec![json!({"type": "sale", "player": 0, "customer": "c09"})])),
        "already_passed" => code(&market(vec![
            json!({"type": "pass", "player": 1}),
            json!({"type": "sale", "player": 1, "customer": "c09"}),
        ])),
        "customer_not_available" => code(&market(vec![json!({"type": "sale", "player": 1, "customer": "c01"})])),
        "carla_sale_wrong" => {
            let mut e = three_turns("blank");
            e[3] = json!({"type": "sale", "player": "carla", "customer": "c09"});
            code(&solo(e))
        }
        "refill_count" => code(&market(vec![
            json!({"type": "sale", "player": 1, "customer": "c09"}),
            json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}),
            json!({"type": "refill", "tiles": ["c07"]}),
        ])),
        "customer_not_in_pile" => code(&market(vec![
            json!({"type": "sale", "player": 1, "customer": "c09"}),
            json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}),
            json!({"type": "refill", "tiles": ["c07", "c01"]}),
        ])),
        "council_stage_max" => code_after(
            &game2(vec![]),
            |g| {
                council_member(4)(g);
                g.players[0].goods[Good::Scroll.index()] = 1;
            },
            &[turn(
                0,
                "council",
                "green",
                json!({"do": "council", "advance": {"gen": 1, "at": "council:4"}, "pay": "scroll"}),
            )],
        ),
        "privilege_too_high" => code_after(
            &game2(vec![]),
            council_member(1),
            &[turn(0, "council", "green", json!({"do": "council", "privilege": {"stage": 3, "good": "ox"}}))],
        ),
        "no_council_member" => {
            code(&game2(vec![turn(0, "council", "green", json!({"do": "council", "privilege": {"stage": 1}}))]))
        }
        "bad_privilege" => code_after(
            &game2(vec![]),
            council_member(3),
            &[turn(0, "council", "green", json!({"do": "council", "privilege": {"stage": 3}}))],
        ),
        "not_adjacent" => {
            code(&game2(vec![turn(0, "travel", "brown", json!({"do": "travel", "member": {"gen": 1}, "to": "east"}))]))
        }
        "bad_reward" => code_after(
            &game2(vec![]),
            |g| {
                g.players[0].goods[Good::Wagon.index()] = 1;
                g.players[0].cubes.add(Cube::Brown, 1);
            },
            &[turn(
                0,
                "travel",
                "brown",
                json!({"do": "travel", "member": {"gen": 1}, "to": "north", "reward": {"cubes": ["green", "green"]}}),
            )],
        ),
        "death_not_due" => code(&example(vec![json!({"type": "death", "player": 0, "member": {"gen": 1}})])),
        "not_oldest" => code(&fixture("invalid-not-oldest.json")),
        "death_expected" => {
            code(&with_entries("worked-example-2p-round-1.json", 1, 11, vec![take(1, "travel", "brown")]))
        }
        "expected_mass" => code(&mass(take(1, "harvest", "green"))),
        "unexpected_mass" => code(&with_entries(
            "worked-example-2p-round-1.json",
            1,
            22,
            vec![json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]})],
        )),
        "mass_buy" => code(&mass(
            json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"], "buy": [{"player": 1, "gens": [1]}]}),
        )),
        "draw_count" => code(&mass(json!({"type": "mass", "draw": ["monk", "monk", "monk"]}))),
        "draw_not_in_bag" => code(&fixture("invalid-draw-not-in-bag.json")),
        "promote_invalid" => {
            code(&mass(json!({"type": "mass", "draw": ["monk", {"player": 1, "gen": 1}, "monk", "monk"],
            "promote": [{"player": 1, "moves": [{"gen": 1, "from": 1, "to": 1}]}]})))
        }
        "carla_take_wrong" => {
            let mut e = three_turns("blank");
            e[2] = json!({"type": "carla", "space": "harvest", "cube": "orange"});
            code(&solo(e))
        }
        "carla_not_due" => {
            code(&solo(vec![populate1(), json!({"type": "carla", "space": "harvest", "cube": "green"})]))
        }
        "carla_roll_wrong" => {
            let mut log = solo(vec![
                populate1(),
                take(0, "harvest", "green"),
                json!({"type": "carla", "rolls": ["pink", "orange"], "space": "harvest", "cube": "orange"}),
            ]);
            log["setup"]["solo"]["carla_rule"] = json!("die");
            code(&log)
        }
        "fate_inconsistent" => {
            let mut e = three_turns("quill");
            e.push(take(0, "harvest", "orange"));
            e.push(json!({"type": "fate", "set": "bottom", "result": "blank"}));
            e.push(take(0, "crafts", "orange"));
            e.push(take(0, "council", "green"));
            e.push(json!({"type": "fate", "set": "top", "result": "quill"}));
            code(&solo(e))
        }
        "seed_mismatch" => code(&fixture("invalid-seed-mismatch-2p.json")),
        _ => None,
    }
}

/// G: each code of the engine is produced by some log (or changed state), and by the row
/// written for it.
#[test]
fn g_every_error_code_is_reachable() {
    let missing: Vec<(&str, Option<String>)> = ErrorCode::ALL
        .iter()
        .map(|c| (c.as_str(), reach(c.as_str())))
        .filter(|(c, got)| got.as_deref() != Some(*c))
        .collect();
    assert!(missing.is_empty(), "codes not reached as written (code, got): {missing:?}");
}
