//! The random bot: a uniformly random legal candidate (`crate::legal`), with explorations
//! declared from the synthetic encounter and no efforts. Passes only when nothing else applies
//! or with probability 1/8, so games move on.

use crate::game::Game;
use crate::legal::{applies, candidates, preview_explore};
use crate::notation::{Action, Entry};
use crate::rng::SplitMix;

use super::encounter;

pub fn turn(game: &Game, p: usize, rng: &mut SplitMix) -> Entry {
    let pass = Entry::Pass { player: p as u64, free: vec![] };
    let mut options: Vec<Entry> = candidates(game)
        .into_iter()
        .filter(|e| matches!(e, Entry::Turn { player, .. } if *player == p as u64))
        .map(|e| with_synthetic_step(game, e))
        .filter(|e| applies(game, e))
        .collect();
    if options.is_empty() || rng.uniform(8) == 0 {
        return pass;
    }
    let i = rng.uniform(options.len() as u64) as usize;
    options.swap_remove(i)
}

/// Replaces an explore's placeholder step with the synthetic encounter.
fn with_synthetic_step(game: &Game, mut e: Entry) -> Entry {
    if let Entry::Turn { action: Some(Action::Explore { party, step, .. }), .. } = &mut e {
        if let Some(pre) = preview_explore(game, party) {
            **step = encounter::step(game, party, &pre, 0);
        }
    }
    e
}
