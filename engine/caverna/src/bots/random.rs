//! The random bot and the random [`Chooser`] it samples with.

use crate::action_space::ActionSpace;
use crate::game::Game;
use crate::legal::{self, Chooser, Enumerate, Limits};
use crate::notation::{Entry, HarvestPhase};
use crate::shuffle::SplitMix64;

use super::Bot;

/// A [`Chooser`] that explores exactly one option, drawn uniformly among the first
/// `min(n, cap)` (none when there are none).
pub struct Sampler<'a> {
    pub rng: &'a mut SplitMix64,
}

impl Chooser for Sampler<'_> {
    fn choose(&mut self, n: usize, cap: usize) -> Vec<usize> {
        match n.min(cap) {
            0 => vec![],
            m => vec![self.rng.below(m)],
        }
    }
}

/// Plays uniformly at random among legal options, without enumerating them.
///
/// **What "uniform" means for a placement.** A placement is a random walk through the
/// generator's choices, repeated until it ends in a legal entry (rejection sampling):
///
/// 1. a free action space, uniformly among the spaces no dwarf stands on;
/// 2. a dwarf, uniformly among [`legal::dwarf_choices`] (the dwarf next in weapon order, or an
///    out-of-order dwarf for 1 ruby);
/// 3. at every branch point of that space, one option uniformly among those the generator
///    offers there: first the sequence of the space's parts its connector allows (the empty
///    sequence included), then, part by part, the part's options (the cells of a twin tile, the
///    tile to furnish, a loot list, a sowing, an imitated space, …);
/// 4. the entry is verified (applied to a copy of the game, with a conversion appended if
///    gained animals do not fit); if it is illegal, or a step had no option, the walk starts
///    again at step 1.
///
/// Each walk is independent, so the result is distributed exactly as one walk conditioned on
/// ending legally: uniform *at each branch point* among the options the generator offers
/// there — not uniform over the set of all legal entries (a space with many ways to use it
/// gets no more weight than a space with one). Options the generator never lists (see the
/// [`crate::legal`] module docs: free actions inside a placement, the Builder's payments,
/// more than [`Limits::loot_sets`] larger loot sets, several purchases at the Weekly market)
/// are never played. After [`RandomBot::attempts`] failed walks the bot falls back to a
/// uniform draw from the full enumeration ([`legal::places`] with [`Limits::default`]).
///
/// Harvest decisions: `harvest_choice` is uniform between field and breeding, `breed`
/// uniform among [`legal::breeds`], `keep` uniform among [`legal::keeps`]; feeding is not
/// random: like every bot, it converts before begging ([`super::sensible_feed`]).
#[derive(Clone, Debug)]
pub struct RandomBot {
    /// Walks tried before falling back to full enumeration.
    pub attempts: usize,
    /// Caps of the walk: no cap on a part's options (only one is explored).
    pub limits: Limits,
}

impl Default for RandomBot {
    fn default() -> Self {
        RandomBot {
            attempts: 64,
            limits: Limits {
                options_alone: usize::MAX,
                options_per_part: usize::MAX,
                loot_sets: 12,
                per_space: 1,
                only_tile: None,
            },
        }
    }
}

impl RandomBot {
    /// One random walk (steps 1–4 above) ending in a legal entry, if it does, with the game
    /// after it.
    pub fn walk(
        &self,
        game: &Game,
        p: usize,
        free: &[ActionSpace],
        rng: &mut SplitMix64,
    ) -> Option<(Entry, Box<Game>)> {
        self.walk_reusing(game, p, free, rng, &mut None)
    }

    /// [`RandomBot::walk`], writing its copy of the game over `spare` when there is one, and
    /// leaving there the copy of a failed walk.
    fn walk_reusing(
        &self,
        game: &Game,
        p: usize,
        free: &[ActionSpace],
        rng: &mut SplitMix64,
        spare: &mut Option<Box<Game>>,
    ) -> Option<(Entry, Box<Game>)> {
        let space = *free.get(rng.below(free.len().max(1)))?;
        let choices = legal::dwarf_choices(game, p);
        let choice = *choices.get(rng.below(choices.len().max(1)))?;
        let mut sampler = Sampler { rng };
        legal::dwarf_places(game, p, space, choice, &self.limits, &mut sampler, spare).into_iter().next()
    }
}

/// Action spaces no dwarf stands on.
pub(crate) fn free_spaces(game: &Game) -> Vec<ActionSpace> {
    game.spaces().iter().filter(|(_, s)| s.is_free()).map(|(&a, _)| a).collect()
}

impl Bot for RandomBot {
    fn place_and_play(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<(Entry, Option<Box<Game>>)> {
        self.place_reusing(game, p, rng, &mut None)
    }

    fn place_reusing(
        &self,
        game: &Game,
        p: usize,
        rng: &mut SplitMix64,
        spare: &mut Option<Box<Game>>,
    ) -> Option<(Entry, Option<Box<Game>>)> {
        let free = free_spaces(game);
        if free.is_empty() {
            return None;
        }
        for _ in 0..self.attempts {
            if let Some((e, after)) = self.walk_reusing(game, p, &free, rng, spare) {
                return Some((e, Some(after)));
            }
        }
        let all = legal::places(game, p, &Limits::default(), &mut Enumerate);
        all.get(rng.below(all.len().max(1))).cloned().map(|e| (e, None))
    }

    fn harvest_choice(&self, _game: &Game, _p: usize, rng: &mut SplitMix64) -> HarvestPhase {
        [HarvestPhase::Field, HarvestPhase::Breeding][rng.below(2)]
    }

    fn breed(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<Entry> {
        let options = legal::breeds(game, p);
        options.get(rng.below(options.len().max(1))).cloned()
    }

    fn keep(&self, game: &Game, rng: &mut SplitMix64) -> Option<Entry> {
        let options = legal::keeps(game);
        options.get(rng.below(options.len().max(1))).cloned()
    }
}
