//! Paying costs (`docs/rules/village.md` D.9, G.4): influence cubes (any of them replaceable by a coin,
//! H.11), grain, goods, coins and time. Everything is checked before anything is taken, and
//! "cannot pay" names what is missing.

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Task};
use crate::ids::{Cube, Cubes, Good};

/// A cost. Time is paid last (it is always payable, C.6).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    pub cubes: Cubes,
    pub grain: u32,
    pub goods: [u32; 5],
    pub coins: u32,
    pub time: u64,
}

impl Cost {
    pub fn time(t: u64) -> Cost {
        Cost { time: t, ..Cost::default() }
    }

    pub fn cube(c: Cube, n: u32) -> Cost {
        let mut cubes = Cubes::default();
        cubes.add(c, n);
        Cost { cubes, ..Cost::default() }
    }

    pub fn good(mut self, g: Good, n: u32) -> Cost {
        self.goods[g.index()] += n;
        self
    }

    pub fn plus_time(mut self, t: u64) -> Cost {
        self.time += t;
        self
    }
}

/// More deaths at once than a colour has members change nothing.
pub const MAX_DEATHS: u32 = 11;

/// When a quill passing caused by this payment is resolved (C.6): at the end of the turn, or
/// at once (time paid during a market day).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deaths {
    EndOfTurn,
    Immediate,
}

/// Checks that `coin_for` names only influence cubes of the cost, one coin each (G.4.2).
fn coin_split(cost: &Cubes, coin_for: &[Cube]) -> RuleResult<Cubes> {
    let mut rest = *cost;
    for &c in coin_for {
        if !c.is_influence() || !rest.take(c, 1) {
            return fail(
                ErrorCode::BadCoinSubstitution,
                format!("`coin_for` names a `{c}` cube that the cost does not contain (RULES.md D.9, G.4.2)"),
            );
        }
    }
    Ok(rest)
}

/// Whether a player can pay a cost with the given coin substitutions (no change made).
pub fn can_pay(game: &Game, p: usize, cost: &Cost, coin_for: &[Cube]) -> RuleResult {
    let cubes = coin_split(&cost.cubes, coin_for)?;
    let pl = &game.players[p];
    let mut missing = Vec::new();
    for c in Cube::INFLUENCE {
        if pl.cubes.get(c) < cubes.get(c) {
            missing.push(format!("{} {c}", cubes.get(c) - pl.cubes.get(c)));
        }
    }
    let coins = cost.coins + coin_for.len() as u32;
    if pl.coins_available() < coins {
        missing.push(format!("{} coin", coins - pl.coins_available()));
    }
    if pl.grain < cost.grain {
        missing.push(format!("{} grain", cost.grain - pl.grain));
    }
    for g in Good::ALL {
        if pl.good(*g) < cost.goods[g.index()] {
            missing.push(format!("{} {g}", cost.goods[g.index()] - pl.good(*g)));
        }
    }
    if !missing.is_empty() {
        return fail(
            ErrorCode::CannotPay,
            format!("{} lacks {} (RULES.md G.4.1)", game.seat_name(p), missing.join(", ")),
        );
    }
    Ok(())
}

/// Pays a cost: cubes to the supply, coins (the solo token first, H.34), grain, goods, time.
pub fn pay(game: &mut Game, p: usize, cost: &Cost, coin_for: &[Cube], deaths: Deaths) -> RuleResult {
    can_pay(game, p, cost, coin_for)?;
    let cubes = coin_split(&cost.cubes, coin_for)?;
    for c in Cube::INFLUENCE {
        let k = cubes.get(c);
        game.players[p].cubes.take(c, k);
        game.supply.add(c, k);
    }
    pay_coins(game, p, cost.coins + coin_for.len() as u32);
    let pl = &mut game.players[p];
    pl.grain -= cost.grain;
    for g in Good::ALL {
        pl.goods[g.index()] -= cost.goods[g.index()];
    }
    spend_time(game, p, cost.time, deaths)
}

/// Pays coins, spending the solo token first (H.34). The caller has checked the amount.
pub fn pay_coins(game: &mut Game, p: usize, mut n: u32) {
    let pl = &mut game.players[p];
    if n > 0 && pl.token {
        pl.token = false;
        n -= 1;
    }
    pl.coins = pl.coins.saturating_sub(n);
}

/// Spends time (C.6): the life marker moves; each quill passing (every multiple of L
/// reached) is one death, now or at the end of the turn.
pub fn spend_time(game: &mut Game, p: usize, t: u64, deaths: Deaths) -> RuleResult {
    if t == 0 {
        return Ok(());
    }
    let lap = game.components().life_track()?;
    let pl = &mut game.players[p];
    let before = pl.time / lap;
    pl.time = pl.time.saturating_add(t);
    let passings = pl.time / lap - before;
    let passings = u32::try_from(passings).unwrap_or(u32::MAX);
    match deaths {
        Deaths::EndOfTurn => pl.pending_deaths = pl.pending_deaths.saturating_add(passings),
        Deaths::Immediate => {
            // A colour has 11 members: more deaths than that can change nothing (C.7).
            for _ in 0..passings.min(MAX_DEATHS) {
                game.tasks.push(Task::Death { player: p });
            }
        }
    }
    Ok(())
}
