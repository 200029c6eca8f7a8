//! Rule families of `docs/rules/village.md` B–F that the other suites reach only in passing: the harvest's
//! goods combinations (D.1), journeys and repeat visits (D.6), the scoring tables (E.3), the
//! mass majority's tie-break (E.1 step 3), Carla at the mass (F.5), Carla's board at a new
//! round (F.6) and the solo ranks (F.7). Positions are set up by changing the state of a short
//! game directly; each test says what it changes.

use chronicle_village::game::Loc;
use chronicle_village::ids::{Cube, Good};
use chronicle_village::rules::scoring;
use serde_json::{json, Value};

use crate::common::*;
use crate::solo::solo;

/// D.1: 2 grain; horse + plough 3; ox + plough 4 (4 is the most, goods kept). Changed state:
/// Alice's goods.
#[test]
fn d1_harvest_combinations() {
    let harvest = turn(0, "harvest", "green", json!({"do": "harvest"}));
    for (goods, grain) in [
        (vec![], 2),
        (vec![Good::Horse, Good::Plough], 3),
        (vec![Good::Ox, Good::Plough], 4),
        (vec![Good::Horse, Good::Ox, Good::Plough], 4),
        (vec![Good::Horse, Good::Ox], 2),
    ] {
        let mut g = game_at(&game2(vec![]));
        for good in &goods {
            g.players[0].goods[good.index()] = 1;
        }
        assert_eq!(play(&mut g, std::slice::from_ref(&harvest)), Ok(()));
        let p = &view(&g)["players"][0];
        assert_eq!(p["grain"], json!(grain), "{goods:?}");
        assert_eq!(goods.iter().map(|x| p["goods"][x.id()].clone()).collect::<Vec<_>>(), vec![json!(1); goods.len()]);
    }
}

/// D.6: a journey moves a member from its city to an adjacent one, paying the path (2 time, a
/// wagon, its cubes); a new city gives its reward, a city already holding the disc nothing.
/// Changed state: Alice's member stands on `north` (disc placed), with 2 wagons and an orange.
#[test]
fn d6_journey_and_repeat_visit() {
    let mut g = game_at(&game2(vec![]));
    let cities = g.components().travel.as_ref().expect("travel map").cities();
    let north = cities.iter().position(|c| c.id == "north").expect("north");
    assert!(g.players[0].relocate(1, Loc::Farm, Loc::City(north)));
    g.players[0].discs = vec![north];
    g.players[0].goods[Good::Wagon.index()] = 2;
    g.players[0].cubes.add(Cube::Orange, 1);
    let east =
        turn(0, "travel", "brown", json!({"do": "travel", "member": {"gen": 1, "at": "city:north"}, "to": "east"}));
    assert_eq!(play(&mut g, &[east]), Ok(()));
    let p = view(&g)["players"][0].clone();
    assert_eq!((p["coins"].clone(), p["time"].clone(), p["goods"]["wagon"].clone()), (json!(2), json!(2), json!(1)));
    assert_eq!(p["cities"], json!(["north", "east"]));
    assert_eq!(count_at(&p, "city:east"), 1);
    // Back to north (already holding the disc): the path's orange paid with a coin, no reward.
    assert_eq!(play(&mut g, &[take(1, "harvest", "green")]), Ok(()));
    let back = turn(
        0,
        "travel",
        "pink",
        json!({"do": "travel", "member": {"gen": 1, "at": "city:east"}, "to": "north", "coin_for": ["orange"]}),
    );
    assert_eq!(play(&mut g, &[back]), Ok(()));
    let p = &view(&g)["players"][0];
    assert_eq!((p["coins"].clone(), p["cities"].clone()), (json!(1), json!(["north", "east"])));
    assert_eq!(p["provisional_score"]["rows"]["track_travel"], json!(0));
}

/// E.3: the final rows' tables — cities 1/3/6/10/14/18; church 2/3/4/6 and council 0/2/4/6 per
/// member by stage; chronicle 0/0/4/7/12 by members; 1 per coin. Changed state of a fresh game.
#[test]
fn e3_scoring_tables() {
    assert_eq!((0..=7).map(scoring::travel_points).collect::<Vec<_>>(), [0, 1, 3, 6, 10, 14, 18, 18]);
    assert_eq!((0..=6).map(scoring::chronicle_points).collect::<Vec<_>>(), [0, 0, 0, 4, 7, 12, 12]);
    let mut g = game_at(&game2(vec![]));
    let p = &mut g.players[0];
    for (i, loc) in [Loc::Church(1), Loc::Church(4), Loc::Council(2), Loc::Council(4)].into_iter().enumerate() {
        p.members[i].loc = loc;
    }
    p.coins = 3;
    let rows: Vec<(&str, i64)> = scoring::provisional(&g, 0).rows().to_vec();
    let get = |id: &str| rows.iter().find(|r| r.0 == id).map(|r| r.1);
    assert_eq!((get("church"), get("council"), get("coins")), (Some(2 + 6), Some(2 + 6), Some(3)));
}

/// The worked example at its mass with changed state: the church track as given, Bo's bagged
/// member drawn by the mass entry `draw`.
fn mass_with_track(alice: &[u8], bo: &[u8], draw: Value) -> Value {
    let log = fixture("worked-example-2p-round-1.json");
    let mut part = log.clone();
    part["entries"] = json!(log["entries"].as_array().map(|a| a[..23].to_vec()).unwrap_or_default());
    let mut g = game_at(&part);
    for (p, stages) in [(0usize, alice), (1, bo)] {
        for &s in stages {
            let m = g.players[p].members.iter_mut().find(|m| m.loc == Loc::Reserve).expect("a reserve member");
            m.loc = Loc::Church(s);
        }
    }
    assert_eq!(play(&mut g, &[json!({"type": "mass", "draw": draw})]), Ok(()));
    let s = view(&g);
    json!([
        s["players"][0]["provisional_score"]["rows"]["track_mass"],
        s["players"][1]["provisional_score"]["rows"]["track_mass"]
    ])
}

/// E.1 step 3: most members wins; a tie goes to the tied player whose highest member stands
/// highest; still tied, each of those gains 2. Changed state: members on the track.
#[test]
fn e1_majority_and_its_tie_break() {
    let monks = json!(["monk", "monk", "monk", "monk"]);
    // Bo's bagged member stays in the bag (4 monks drawn).
    assert_eq!(mass_with_track(&[1, 1], &[4], monks.clone()), json!([2, 0]));
    assert_eq!(mass_with_track(&[1, 2], &[3, 1], monks.clone()), json!([0, 2]));
    assert_eq!(mass_with_track(&[3, 1], &[3, 2], monks.clone()), json!([2, 2]));
    // Bo's drawn member makes 2 against 2: Alice's stage 3 beats Bo's stage 2.
    let bo_drawn = json!(["monk", {"player": 1, "gen": 1}, "monk", "monk"]);
    assert_eq!(mass_with_track(&[3, 1], &[2], bo_drawn), json!([2, 0]));
}

/// F.5: Carla's members count for the majority but she gains nothing; a tie with her after the
/// tie-break gives you the 2 PP. Changed state of a solo game at its first mass: the track.
#[test]
fn f5_carla_at_the_mass() {
    let run = |alice: &[u8], carla: &[u8]| {
        let mut g = game_at(&solo(vec![populate1()]));
        for c in g.board.iter_mut() {
            for &cube in Cube::ALL.iter() {
                let n = c.get(cube);
                c.take(cube, n);
                g.supply.add(cube, n);
            }
        }
        g.tasks = vec![chronicle_village::game::Task::Mass { last: false }];
        for &s in alice {
            let m = g.players[0].members.iter_mut().find(|m| m.loc == Loc::Reserve).expect("reserve");
            m.loc = Loc::Church(s);
        }
        let carla_members = &mut g.carla.as_mut().expect("solo").members;
        for &s in carla {
            let m = carla_members.iter_mut().find(|m| m.loc == Loc::Beside).expect("beside");
            m.loc = Loc::Church(s);
        }
        assert_eq!(play(&mut g, &[json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]})]), Ok(()));
        view(&g)["players"][0]["provisional_score"]["rows"]["track_mass"].clone()
    };
    assert_eq!(run(&[1], &[1, 2]), json!(0), "Carla alone wins: nobody gains");
    assert_eq!(run(&[1, 3], &[1, 3]), json!(2), "tied after the tie-break: you gain");
    assert_eq!(run(&[1, 2], &[1, 3]), json!(0), "Carla's higher member wins the tie");
}

/// F.6: at a new round every cube on Carla's board but the last placed returns to the supply,
/// and her next cube goes on the box after it. Changed state: her board holds four cubes.
#[test]
fn f6_carla_board_at_a_new_round() {
    let mut g = game_at(&solo(vec![populate1()]));
    for c in g.board.iter_mut() {
        for &cube in Cube::ALL.iter() {
            let n = c.get(cube);
            c.take(cube, n);
            g.supply.add(cube, n);
        }
    }
    let carla = g.carla.as_mut().expect("solo");
    carla.board = vec![Cube::Green, Cube::Brown, Cube::Pink, Cube::Orange];
    carla.next_box = 4;
    for c in [Cube::Green, Cube::Brown, Cube::Pink, Cube::Orange] {
        g.supply.take(c, 1);
    }
    g.tasks = vec![chronicle_village::game::Task::Mass { last: false }];
    assert_eq!(play(&mut g, &[json!({"type": "mass", "draw": ["monk", "monk", "monk", "monk"]})]), Ok(()));
    let s = view(&g);
    assert_eq!((s["round"].clone(), s["phase"].clone()), (json!(2), json!("populate")));
    assert_eq!((s["carla"]["board"].clone(), s["carla"]["next_box"].clone()), (json!(["orange"]), json!(4)));
}

/// F.7: the solo ranks' thresholds.
#[test]
fn f7_solo_ranks() {
    let ranks: Vec<&str> =
        [0, 39, 40, 49, 50, 59, 60, 69, 70, 79, 80, 200].into_iter().map(scoring::solo_rank).collect();
    assert_eq!(
        ranks,
        [
            "apprentice",
            "apprentice",
            "professional",
            "professional",
            "master",
            "master",
            "grand_master",
            "grand_master",
            "genius",
            "genius",
            "legend",
            "legend"
        ]
    );
}
