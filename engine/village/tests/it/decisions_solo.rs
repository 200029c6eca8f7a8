//! `docs/rules/village.md` H decisions of the solo mode, one test each, on the unseeded solo log of
//! `solo.rs` (synthetic table: Carla's order harvest, family, crafts, market, travel, council,
//! church; fate boxes top 2/5/8, bottom 3/7/11) and the golden solo game. Rare positions are
//! set up by changing the state directly; each such test says what it changes.

use chronicle_village::game::Loc;
use chronicle_village::ids::{Cube, Good};
use chronicle_village::rules::scoring;
use serde_json::{json, Value};

use crate::common::*;
use crate::solo::{solo, three_turns};

fn carla(space: &str, cube: &str) -> Value {
    json!({"type": "carla", "space": space, "cube": cube})
}

fn die_solo(entries: Vec<Value>) -> Value {
    let mut log = solo(entries);
    log["setup"]["solo"]["carla_rule"] = json!("die");
    log
}

/// H.21: "From `components.carla.order`. … going clockwise from `market`, `travel` comes before
/// `council`; a table contradicting that is rejected." Swapping the two is `bad_components`.
#[test]
fn h21_carla_order_travel_before_council() {
    let mut log = solo(vec![]);
    log["setup"]["components"]["carla"]["order"] =
        json!(["harvest", "family", "crafts", "market", "council", "travel", "church"]);
    assert_eq!(error(&log), Some((None, "bad_components".to_owned())));
    // Going clockwise from the market wraps around: this order keeps travel first.
    log["setup"]["components"]["carla"]["order"] =
        json!(["travel", "church", "council", "harvest", "family", "crafts", "market"]);
    assert!(error(&log).is_none());
}

/// The golden solo game (seeded) just before its final mass, with the generator removed so
/// that the mass entry writes its draws.
fn before_final_mass() -> chronicle_village::Game {
    let log = fixture("synthetic-solo-complete.json");
    let n = log["entries"].as_array().and_then(|a| a.iter().rposition(|e| e["type"] == "mass")).unwrap_or(0);
    let mut part = log.clone();
    part["entries"] = json!(log["entries"].as_array().map(|a| a[..n].to_vec()).unwrap_or_default());
    part.as_object_mut().map(|o| o.remove("claimed"));
    let mut g = game_at(&part);
    g.rng = None;
    g
}

/// H.22: "Goes back into the bag like a monk." The golden game ends with Carla on all four
/// church stages; changed state: one of her members beside the board is put into the bag and
/// drawn at the final mass. It stays in the bag.
#[test]
fn h22_fifth_carla_member_back_to_the_bag() {
    let mut g = before_final_mass();
    assert_eq!(
        view(&g)["carla"]["members"]
            .as_array()
            .map(|m| m.iter().filter(|x| x["at"].as_str().is_some_and(|a| a.starts_with("church:"))).count()),
        Some(4)
    );
    let carla = g.carla.as_mut().expect("solo");
    let m = carla.members.iter_mut().find(|m| m.loc == Loc::Beside).expect("a member beside the board");
    let gen = m.gen;
    m.loc = Loc::Bag;
    g.monks = 4;
    let mass = json!({"type": "mass", "draw": [{"player": "carla", "gen": gen}, "monk", "monk", "monk"]});
    assert_eq!(play(&mut g, &[mass]), Ok(()));
    let s = view(&g);
    let at = |loc: &str| s["carla"]["members"].as_array().map_or(0, |m| m.iter().filter(|x| x["at"] == loc).count());
    assert_eq!((at("bag"), at("church:1")), (1, 1));
}

/// H.23: "Carla takes no more cubes; … If she triggers the end, you get one last turn." In the
/// golden game Alice's own death ends it on a turn that took a cube: no `carla` entry follows,
/// and one written before the final mass is refused (the seeded final mass, run on its own
/// when the next entry is not a `mass`, leaves the game over).
#[test]
fn h23_no_carla_cube_after_the_trigger() {
    let log = fixture("synthetic-solo-complete.json");
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    let trigger = (1..=entries.len())
        .find(|&n| {
            let mut part = log.clone();
            part["entries"] = json!(entries[..n].to_vec());
            state_until(&part)["end_triggered"] == json!(true)
        })
        .expect("the game ends");
    let last_turn = entries[..trigger].iter().rev().find(|e| e["type"] == "turn");
    assert!(last_turn.is_some_and(|t| t.get("take").is_some()), "the triggering turn took a cube");
    assert!(entries[trigger..].iter().all(|e| e["type"] != "carla"));
    let last = entries.len() - 1;
    assert_eq!(entries[last]["type"], json!("mass"));
    let mut with_carla = log.clone();
    with_carla.as_object_mut().map(|o| o.remove("claimed"));
    if let Some(e) = with_carla["entries"].as_array_mut() {
        e.insert(last, carla("harvest", "orange"));
    }
    assert_invalid(&with_carla, last, "game_over");
}

/// H.24: "She serves once, right after your first opportunity (also if you passed); first
/// available customer, or the next if you just served the first." Alice's market day: she
/// cannot serve (automatic pass) and Carla serves stall 1; changed state: with a horse Alice
/// serves stall 1 (c04) and Carla the next, stall 2 (c09).
#[test]
fn h24_carla_in_your_market_day() {
    let market = turn(0, "market", "green", json!({"do": "market"}));
    // The automatic pass is taken at the end of the log (`state`, not `state_until`).
    let s = state(&solo(vec![populate1(), market.clone()]));
    assert_eq!(s["carla"]["served"], json!(["c04"]));
    let mut g = game_at(&solo(vec![populate1()]));
    g.players[0].goods[Good::Horse.index()] = 1;
    let sale = json!({"type": "sale", "player": 0, "customer": "c04"});
    let carla_sale = |c: &str| json!({"type": "sale", "player": "carla", "customer": c});
    let wrong = [market.clone(), sale.clone(), carla_sale("c15")];
    assert_eq!(play(&mut g.clone(), &wrong), Err("carla_sale_wrong".to_owned()));
    assert_eq!(play(&mut g, &[market, sale, carla_sale("c09")]), Ok(()));
    let s = view(&g);
    assert_eq!(s["carla"]["served"], json!(["c09"]));
    assert_eq!(s["players"][0]["customers"], json!(["c04"]));
    assert_eq!(s["players"][0]["time"], json!(0), "the trigger's first sale costs nothing extra");
}

/// H.25: "Carla triggers a market day; she serves first (free), you pay the extra for every
/// sale." Changed state: Alice holds a plough; after Carla serves c04 she serves c09 (a
/// plough), paying her green cube and 1 time.
#[test]
fn h25_carla_market_cube() {
    let mut g = game_at(&solo(vec![populate1(), take(0, "harvest", "green")]));
    g.players[0].goods[Good::Plough.index()] = 1;
    let sale = json!({"type": "sale", "player": 0, "customer": "c09"});
    assert_eq!(play(&mut g, &[carla("market", "green"), sale]), Ok(()));
    let s = view(&g);
    assert_eq!(s["carla"]["served"], json!(["c04"]));
    assert_eq!(s["players"][0]["customers"], json!(["c09"]));
    assert_eq!((s["players"][0]["time"].clone(), s["players"][0]["cubes"].clone()), (json!(1), json!({})));
}

/// H.34: "When you pay a coin and hold the token, the token is spent first." Changed state:
/// Alice holds the token and her coin; a church paid with a coin for the brown spends the token.
#[test]
fn h34_token_spent_first() {
    let mut g = game_at(&solo(vec![populate1()]));
    g.players[0].token = true;
    let church =
        turn(0, "church", "pink", json!({"do": "church", "member": {"gen": 1}, "pay": "brown", "coin_for": ["brown"]}));
    assert_eq!(play(&mut g, &[church]), Ok(()));
    let p = &view(&g)["players"][0];
    assert_eq!((p["token"].clone(), p["coins"].clone()), (json!(false), json!(1)));
}

/// H.35: "No death." Changed state: every living Carla member is in the bag when her third cube
/// flips a quill; nobody of hers dies.
#[test]
fn h35_carla_with_only_bag_members() {
    let e = three_turns("quill");
    let (flip, before) = e.split_last().expect("entries");
    let mut g = game_at(&solo(before.to_vec()));
    for m in g.carla.as_mut().expect("solo").members.iter_mut() {
        m.loc = Loc::Bag;
    }
    assert_eq!(play(&mut g, std::slice::from_ref(flip)), Ok(()));
    let s = view(&g);
    assert_eq!(s["carla"]["members"].as_array().map(|m| m.iter().all(|x| x["at"] == "bag")), Some(true));
    assert_eq!(s["carla"]["fate"]["top"], json!(["quill"]));
}

/// H.38: "Carla takes a plague cube of your choice from s, else from the next space clockwise
/// having one." Die rule; changed state: after Alice's harvest plague cube only plague cubes
/// remain (crafts, church). Harvest has none left, so crafts, without rolls.
#[test]
fn h38_die_rule_with_only_plague_cubes() {
    let mut g = game_at(&die_solo(vec![populate1(), take(0, "harvest", "black")]));
    for space in g.board.iter_mut() {
        for &c in Cube::ALL.iter().filter(|c| c.is_influence()) {
            let n = space.get(c);
            space.take(c, n);
            g.supply.add(c, n);
        }
    }
    assert_eq!(play(&mut g.clone(), &[carla("church", "black")]), Err("carla_take_wrong".to_owned()));
    let rolled = json!({"type": "carla", "rolls": ["green"], "space": "crafts", "cube": "black"});
    assert_eq!(play(&mut g.clone(), &[rolled]), Err("carla_roll_wrong".to_owned()));
    assert_eq!(play(&mut g, &[carla("crafts", "black")]), Ok(()));
    assert_eq!(view(&g)["carla"]["board"], json!(["black"]));
}

/// H.39: "Included as `solo.carla_rule = \"die\"`; the rolls are logged." An orange roll takes
/// the harvest's orange; a present colour rolled before the last roll is refused.
#[test]
fn h39_die_rule_rolls_are_logged() {
    let prefix = vec![populate1(), take(0, "harvest", "green")];
    let mut e = prefix.clone();
    e.push(json!({"type": "carla", "rolls": ["orange"], "space": "harvest", "cube": "orange"}));
    let s = state_until(&die_solo(e));
    assert_eq!(s["carla"]["board"], json!(["orange"]));
    let mut e = prefix;
    e.push(json!({"type": "carla", "rolls": ["pink", "orange"], "space": "harvest", "cube": "orange"}));
    assert_invalid(&die_solo(e), 2, "carla_roll_wrong");
}

/// H.41: "Spent or unused, it is back on the council chamber when the next round starts."
/// Changed state: in round 1 of the golden game Alice took the token and spent it; at round 2
/// it is on the council chamber again.
#[test]
fn h41_token_returns_every_round() {
    let log = fixture("synthetic-solo-complete.json");
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    let mut part = log.clone();
    part["entries"] = json!(entries[..2].to_vec());
    part.as_object_mut().map(|o| o.remove("claimed"));
    let mut g = game_at(&part);
    assert_eq!(g.round, 1);
    g.next_first = Some(0);
    g.players[0].token = false;
    let mut i = 2;
    while g.round == 1 && i < entries.len() {
        assert_eq!(play(&mut g, std::slice::from_ref(&entries[i])), Ok(()));
        i += 1;
    }
    let s = view(&g);
    assert_eq!((s["round"].clone(), s["next_first_player_token"].clone()), (json!(2), json!(null)));
    assert_eq!(s["players"][0]["token"], json!(false));
}

/// H.42: "It is not a coin and scores nothing." Changed state: Alice holds the token at the
/// end of the golden game; her coins row is unchanged.
#[test]
fn h42_token_scores_nothing() {
    let mut g = replay(&fixture("synthetic-solo-complete.json")).game.expect("complete");
    let before = scoring::score(&g, 0).map(|s| s.rows());
    g.players[0].token = true;
    assert_eq!(scoring::score(&g, 0).map(|s| s.rows()), before);
}

/// H.43: "Cube onto her board, then the fate flip and any death (with its end trigger), then
/// her reaction." Carla's third cube comes from the market and flips a quill: the flip is
/// written before her market day's sale and refill (a sale before the flip is refused: the
/// flip is due there, G.3.9, which H.44 puts before the sale's own G.7.1), and her dead member
/// (market cube) goes to a grave.
#[test]
fn h43_flip_before_reaction() {
    let e = vec![
        populate1(),
        take(0, "church", "brown"),
        carla("family", "brown"),
        take(0, "church", "pink"),
        carla("family", "pink"),
        take(0, "harvest", "green"),
        carla("market", "green"),
        json!({"type": "fate", "set": "top", "result": "quill"}),
        json!({"type": "sale", "player": "carla", "customer": "c04"}),
        json!({"type": "refill", "tiles": ["c02"]}),
    ];
    let s = state_until(&solo(e.clone()));
    assert_eq!(s["carla"]["served"], json!(["c04"]));
    let graves = s["carla"]["members"].as_array().map_or(0, |m| m.iter().filter(|x| x["at"] == "grave").count());
    assert_eq!(graves, 1);
    let mut swapped = e;
    swapped.swap(7, 8);
    assert_invalid(&solo(swapped), 7, "expected_entry");
}
