//! Legal next entries (`GameEngine::legal_entries`) and the candidates the bots choose from.
//!
//! Candidates are generated for the step the game waits for and each is kept only if it
//! applies to a copy of the game. The generator leaves out some equivalent or redundant
//! forms, so the list is marked incomplete except where it is whole (a death choice, a seeded
//! random outcome): coin substitutions are generated only for the cubes a player lacks (the
//! fewest coins), the well only with the fewest coins, a mass's buys and promotions one
//! member at a time, an unseeded random outcome (populate, refill, mass draw, die roll) only
//! as one possible example.

use crate::components::Node;
use crate::game::{Game, Loc, Task};
use crate::ids::{Building, Cube, Cubes, Good, Space};
use crate::notation::{
    Action, DrawItem, Entry, Face, MassBuy, MemberRef, MonkTag, Move, Pay, PopulateSpaces, Privilege, Promotion,
    Reward, RewardChoice, Take, WellNotation, Who,
};
use crate::rules::{self, carla, market, time_and_death};

/// Coins standing in for the cubes a player lacks (D.9).
fn coins_for(game: &Game, p: usize, cost: &Cubes) -> Vec<Cube> {
    let have = &game.players[p].cubes;
    Cube::INFLUENCE
        .iter()
        .flat_map(|&c| std::iter::repeat_n(c, cost.get(c).saturating_sub(have.get(c)) as usize))
        .collect()
}

fn mref(gen: u8, loc: Loc, game: &Game) -> MemberRef {
    MemberRef { gen, at: (loc != Loc::Farm).then(|| loc.id(game.components())) }
}

/// Distinct (generation, location) pairs of a player's members matching `f`.
fn distinct(game: &Game, p: usize, f: impl Fn(Loc) -> bool) -> Vec<(u8, Loc)> {
    let mut v: Vec<(u8, Loc)> = game.players[p].members.iter().filter(|m| f(m.loc)).map(|m| (m.gen, m.loc)).collect();
    v.sort();
    v.dedup();
    v
}

fn cube_pairs() -> Vec<Vec<Cube>> {
    let mut v = Vec::new();
    for (i, &a) in Cube::INFLUENCE.iter().enumerate() {
        for &b in &Cube::INFLUENCE[i..] {
            v.push(vec![a, b]);
        }
    }
    v
}

fn privileges(up_to: u8) -> Vec<Privilege> {
    let mut v = vec![Privilege { stage: 1, cubes: None, good: None }];
    if up_to >= 2 {
        v.extend(cube_pairs().into_iter().map(|c| Privilege { stage: 2, cubes: Some(c), good: None }));
    }
    if up_to >= 3 {
        v.extend(Good::ALL.iter().map(|&g| Privilege { stage: 3, cubes: None, good: Some(g) }));
    }
    if up_to >= 4 {
        v.push(Privilege { stage: 4, cubes: None, good: None });
    }
    v
}

/// Candidate actions of one space for player `p`.
pub fn actions(game: &Game, p: usize, space: Space) -> Vec<Action> {
    let mut out = Vec::new();
    let green2 = {
        let mut c = Cubes::default();
        c.add(Cube::Green, 2);
        c
    };
    match space {
        Space::Harvest => out.push(Action::Harvest { coin_for: vec![] }),
        Space::Family => {
            out.push(Action::Family { recall: None, coin_for: vec![] });
            for (gen, loc) in distinct(game, p, Loc::on_board) {
                out.push(Action::Family { recall: Some(mref(gen, loc, game)), coin_for: vec![] });
            }
        }
        Space::Crafts => {
            out.push(Action::Craft { building: Building::Mill, good: None, pay: None, train: None, coin_for: vec![] });
            for b in [Building::Wainwright, Building::Stables, Building::Office, Building::Blacksmith] {
                let goods: Vec<Option<Good>> =
                    if b == Building::Stables { vec![Some(Good::Horse), Some(Good::Ox)] } else { vec![None] };
                for good in goods {
                    let cf = coins_for(game, p, &rules::crafts::price(b).cubes);
                    out.push(Action::Craft { building: b, good, pay: Some(Pay::Price), train: None, coin_for: cf });
                    out.push(Action::Craft { building: b, good, pay: Some(Pay::Time), train: None, coin_for: vec![] });
                    for (gen, _) in distinct(game, p, |l| l == Loc::Farm) {
                        let train = Some(MemberRef { gen, at: None });
                        out.push(Action::Craft { building: b, good, pay: Some(Pay::Time), train, coin_for: vec![] });
                    }
                }
            }
        }
        Space::Market => out.push(Action::Market { coin_for: vec![] }),
        Space::Travel => {
            let Some(map) = game.components().travel.as_ref() else { return out };
            for (gen, loc) in distinct(game, p, |l| matches!(l, Loc::Farm | Loc::City(_))) {
                let Some(from) = Game::node(loc) else { continue };
                for (to, path) in map.exits(from) {
                    let Node::City(c) = to else { continue };
                    let cf = coins_for(game, p, &path.cubes);
                    let fresh =
                        !game.players[p].discs.contains(&c) && game.players[p].discs.len() < rules::travel::DISCS;
                    let rewards: Vec<Option<RewardChoice>> = if fresh && map.cities()[c].reward == Reward::Cubes {
                        cube_pairs().into_iter().map(|cubes| Some(RewardChoice { cubes })).collect()
                    } else {
                        vec![None]
                    };
                    for reward in rewards {
                        out.push(Action::Travel {
                            member: mref(gen, loc, game),
                            to: map.cities()[c].id.clone(),
                            reward,
                            coin_for: cf.clone(),
                        });
                    }
                }
            }
        }
        Space::Council => {
            let pays = [(Pay::Green, coins_for(game, p, &green2)), (Pay::Scroll, vec![])];
            for (gen, _) in distinct(game, p, |l| l == Loc::Farm) {
                for (pay, cf) in &pays {
                    for privilege in [None, Some(Privilege { stage: 1, cubes: None, good: None })] {
                        out.push(Action::Council {
                            enter: Some(MemberRef { gen, at: None }),
                            advance: None,
                            pay: Some(*pay),
                            privilege,
                            coin_for: cf.clone(),
                        });
                    }
                }
            }
            for (gen, loc) in distinct(game, p, |l| matches!(l, Loc::Council(s) if s < 4)) {
                let Loc::Council(s) = loc else { continue };
                for (pay, cf) in &pays {
                    let options = std::iter::once(None).chain(privileges(s + 1).into_iter().map(Some));
                    for privilege in options {
                        out.push(Action::Council {
                            enter: None,
                            advance: Some(mref(gen, loc, game)),
                            pay: Some(*pay),
                            privilege,
                            coin_for: cf.clone(),
                        });
                    }
                }
            }
            if let Some(top) = rules::council::highest_stage(game, p) {
                for privilege in privileges(top) {
                    out.push(Action::Council {
                        enter: None,
                        advance: None,
                        pay: None,
                        privilege: Some(privilege),
                        coin_for: vec![],
                    });
                }
            }
        }
        Space::Church => {
            let mut brown = Cubes::default();
            brown.add(Cube::Brown, 1);
            for (gen, _) in distinct(game, p, |l| l == Loc::Farm) {
                let member = MemberRef { gen, at: None };
                out.push(Action::Church {
                    member: member.clone(),
                    pay: Pay::Brown,
                    coin_for: coins_for(game, p, &brown),
                });
                out.push(Action::Church { member, pay: Pay::Time, coin_for: vec![] });
            }
        }
    }
    out
}

fn turn_candidates(game: &Game, p: usize, last: bool) -> Vec<Entry> {
    let mut out = Vec::new();
    let turn = |take: Option<Take>, well: Option<WellNotation>, free: Option<bool>, action: Option<Action>| {
        Entry::Turn { player: p, take, well, free, action }
    };
    if last && game.board_empty() {
        out.push(turn(None, None, Some(true), None));
        for s in Space::ALL {
            for a in actions(game, p, *s) {
                out.push(turn(None, None, Some(true), Some(a)));
            }
        }
        return out;
    }
    for s in Space::ALL {
        let colors: Vec<Cube> = game.space(*s).colors().collect();
        if colors.is_empty() {
            continue;
        }
        let acts = actions(game, p, *s);
        for c in colors {
            let take = Take { space: *s, cube: c };
            if *s != Space::Market {
                out.push(turn(Some(take.clone()), None, None, None));
            }
            for a in &acts {
                out.push(turn(Some(take.clone()), None, None, Some(a.clone())));
            }
        }
    }
    let pl = &game.players[p];
    for c in Cube::INFLUENCE {
        let coins = 3u32.saturating_sub(pl.cubes.get(c));
        if coins <= pl.coins_available() && coins < 3 {
            for s in Space::ALL {
                for a in actions(game, p, *s) {
                    out.push(turn(None, Some(WellNotation { color: c, coins }), None, Some(a)));
                }
            }
        }
    }
    out
}

/// The seeded (or, unseeded, one possible) populate.
fn populate_entry(game: &Game) -> Option<Entry> {
    let mut g = game.clone();
    if g.rng.is_some() {
        rules::round::populate(&mut g, None).ok()?;
        let spaces = PopulateSpaces::from_lists(|s| {
            g.space(s).colors().flat_map(|c| std::iter::repeat_n(c, g.space(s).get(c) as usize)).collect()
        });
        return Some(Entry::Populate { round: u64::from(game.round), spaces });
    }
    g.fill_bag().ok()?;
    let counts = g.components().setup_card(g.player_count()).ok()?.spaces;
    let mut bag = g.green_bag;
    let spaces = PopulateSpaces::from_lists(|s| {
        let mut v = Vec::new();
        for _ in 0..counts[s.index()] {
            let first = bag.colors().next();
            if let Some(c) = first {
                bag.take(c, 1);
                v.push(c);
            }
        }
        v
    });
    Some(Entry::Populate { round: u64::from(game.round), spaces })
}

fn mass_candidates(game: &Game) -> Vec<Entry> {
    let seeded = game.rng.is_some();
    let draw = |bought: usize| -> Option<Vec<DrawItem>> {
        if seeded {
            return None;
        }
        let items = game.black_bag();
        Some(
            items
                .iter()
                .take(rules::mass::DRAWS - bought)
                .map(|i| match *i {
                    crate::game::BagItem::Monk => DrawItem::Monk(MonkTag::Monk),
                    crate::game::BagItem::Member(player, gen) => DrawItem::Member { player, gen },
                })
                .collect(),
        )
    };
    let mut out = vec![Entry::Mass { buy: vec![], draw: draw(0), promote: vec![] }];
    for (p, pl) in game.players.iter().enumerate() {
        if pl.coins_available() > 0 {
            if let Some(gen) = pl.members.iter().filter(|m| m.loc == Loc::Bag).map(|m| m.gen).min() {
                out.push(Entry::Mass {
                    buy: vec![MassBuy { player: p, gens: vec![gen] }],
                    draw: draw(1),
                    promote: vec![],
                });
            }
        }
        for (gen, loc) in distinct(game, p, |l| matches!(l, Loc::Church(s) if s < 4)) {
            if let Loc::Church(s) = loc {
                let promote = vec![Promotion { player: p, moves: vec![Move { gen, from: s, to: s + 1 }] }];
                out.push(Entry::Mass { buy: vec![], draw: draw(0), promote });
            }
        }
    }
    out
}

/// Candidate entries for the step at the top (after the automatic steps), unverified.
pub fn candidates(game: &Game) -> Vec<Entry> {
    let Some(top) = game.tasks.last() else { return Vec::new() };
    match *top {
        Task::Populate => populate_entry(game).into_iter().collect(),
        Task::Turn { player, last } => turn_candidates(game, player, last),
        Task::MarketDay => match game.market_day.as_ref().and_then(|d| d.queue.front().copied()) {
            Some(Who::Carla) => market::carla_customer(game)
                .map(|c| Entry::Sale { player: Who::Carla, customer: c, coin_for: vec![] })
                .into_iter()
                .collect(),
            Some(Who::Seat(p)) => {
                let mut v = vec![Entry::Pass { player: Who::Seat(p) }];
                for c in game.market.available() {
                    let cost = market::sale_cost(game, p, c).map(|k| k.cubes).unwrap_or_default();
                    v.push(Entry::Sale { player: Who::Seat(p), customer: c, coin_for: coins_for(game, p, &cost) });
                }
                v
            }
            None => Vec::new(),
        },
        Task::Refill => {
            let n = market::refill_count(game);
            vec![Entry::Refill { tiles: game.market.pile.iter().take(n).copied().collect() }]
        }
        Task::Death { player } => match time_and_death::candidates(game, player) {
            Some((gen, locs)) => {
                locs.into_iter().map(|l| Entry::Death { player, member: mref(gen, l, game) }).collect()
            }
            None => Vec::new(),
        },
        Task::CarlaTake { color, space } => match carla::due(game, color, space) {
            Ok(Some(carla::Take::Forced(s, c))) => vec![Entry::Carla { rolls: None, space: s, cube: c }],
            Ok(Some(carla::Take::Choice(s, cs))) => {
                cs.into_iter().map(|c| Entry::Carla { rolls: None, space: s, cube: c }).collect()
            }
            Ok(Some(carla::Take::Rolls)) => {
                // One roll of each colour present (seeded logs accept the derived rolls only).
                let mut g = game.clone();
                if g.rng.is_some() && carla::take(&mut g, color, space, None).is_ok() {
                    if let Some(cube) = g.carla.as_ref().and_then(|c| c.board.last().copied()) {
                        let s = Space::ALL.iter().copied().find(|s| g.space(*s) != game.space(*s)).unwrap_or(space);
                        return vec![Entry::Carla { rolls: None, space: s, cube }];
                    }
                }
                Cube::INFLUENCE
                    .iter()
                    .filter(|&&c| game.board.iter().any(|b| b.get(c) > 0))
                    .filter_map(|&c| {
                        let board = game.components().carla.as_ref()?;
                        let s = std::iter::once(space).chain(board.after(space)).find(|x| game.space(*x).get(c) > 0)?;
                        Some(Entry::Carla { rolls: Some(vec![c]), space: s, cube: c })
                    })
                    .collect()
            }
            _ => Vec::new(),
        },
        Task::Fate { set, .. } => {
            [Face::Quill, Face::Blank].into_iter().map(|result| Entry::Fate { set, result }).collect()
        }
        Task::Mass { .. } => mass_candidates(game),
        _ => Vec::new(),
    }
}

/// The legal entries at the step the game waits for (each applied to a copy), and whether
/// the list is whole.
pub fn legal_entries(game: &Game, limit: usize) -> (Vec<Entry>, bool) {
    let mut g = game.clone();
    if rules::run_automatic(&mut g).is_err() {
        return (Vec::new(), true);
    }
    let whole = matches!(g.tasks.last(), Some(Task::Death { .. } | Task::Fate { .. }))
        || (g.rng.is_some() && matches!(g.tasks.last(), Some(Task::Populate | Task::Refill)));
    let mut out = Vec::new();
    for e in candidates(&g) {
        let mut h = g.clone();
        if rules::apply(&mut h, &e).is_ok() {
            if out.len() == limit {
                return (out, false);
            }
            out.push(e);
        }
    }
    (out, whole)
}
