//! The random bot: a uniform choice among the legal entries, from its own seeded generator.

use super::Bot;
use crate::game::Game;
use crate::notation::Entry;
use crate::rng::Rng;

pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Rng::new(seed) }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _game: &Game, options: &[Entry]) -> usize {
        self.rng.below(options.len() as u64) as usize
    }
}
