//! The greedy bot: plays the entry after which its provisional score (`docs/rules/village.md` E.3) plus a
//! small value for what it holds is highest; ties broken by its seeded generator.

use super::Bot;
use crate::game::{Game, Loc};
use crate::notation::Entry;
use crate::rng::Rng;
use crate::rules::{self, scoring};

pub struct GreedyBot {
    rng: Rng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { rng: Rng::new(seed) }
    }
}

/// Points now plus a fraction for goods, grain, cubes, coins and members who can still act,
/// minus a little for time spent (it brings deaths).
fn value(game: &Game, p: usize) -> i64 {
    let pl = &game.players[p];
    let score = scoring::provisional(game, p).total * 100;
    let goods: u32 = pl.goods.iter().sum();
    let farm = pl.members.iter().filter(|m| m.loc == Loc::Farm).count() as i64;
    score + i64::from(goods) * 40 + i64::from(pl.grain) * 15 + i64::from(pl.cubes.total()) * 10 + farm * 20
        - i64::try_from(pl.time).unwrap_or(i64::MAX / 2) * 2
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Game, options: &[Entry]) -> usize {
        let Some(p) = game.to_move() else { return 0 };
        let mut best = Vec::new();
        let mut best_value = i64::MIN;
        for (i, e) in options.iter().enumerate() {
            let mut g = game.clone();
            if rules::apply(&mut g, e).is_err() {
                continue;
            }
            let v = value(&g, p);
            if v > best_value {
                best_value = v;
                best.clear();
            }
            if v == best_value {
                best.push(i);
            }
        }
        if best.is_empty() {
            return 0;
        }
        best[self.rng.below(best.len() as u64) as usize]
    }
}
