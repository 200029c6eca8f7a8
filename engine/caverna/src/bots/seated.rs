//! A pool member at a seat ([`chronicle_game::pool`]): its own bot makes the share of the
//! placements its strength gives (`care` percent), the [`RandomBot`] the others; harvest
//! decisions are always its own bot's (they are small, and the random bot's would only add
//! begging markers that say nothing about strategy).

use chronicle_game::pool::{Leaning, SeatPlan};

use crate::furnishing::Furnishing;
use crate::game::Game;
use crate::notation::{Entry, HarvestPhase};
use crate::shuffle::SplitMix64;

use super::{Bot, BotKind, RandomBot, StrategyBot, Style};

/// A member's bot with its strength.
pub struct Seated {
    own: Box<dyn Bot + Send + Sync>,
    /// Percent of placements made by `own`.
    care: u8,
    random: RandomBot,
}

impl Seated {
    /// The bot of a seat plan: refused for a bot Caverna does not have, a planted tile that is
    /// not a printed furnishing tile's name, or a plant on a bot that has no strategy.
    pub fn new(plan: &SeatPlan) -> Result<Seated, String> {
        let kind = BotKind::from_id(plan.bot).ok_or_else(|| format!("no Caverna bot is called `{}`", plan.bot))?;
        let plant = match &plan.plant {
            None => None,
            Some((name, leaning)) => Some((planted_tile(name)?, *leaning)),
        };
        let own: Box<dyn Bot + Send + Sync> = match (kind, plant) {
            (BotKind::Random, None) => Box::new(RandomBot::default()),
            (BotKind::Random, Some(_)) => return Err("a random bot does not lean towards a tile".to_owned()),
            (BotKind::Weapons, plant) => Box::new(StrategyBot::planted(Style::Weapons, plant)),
            (BotKind::Peaceful, plant) => Box::new(StrategyBot::planted(Style::Peaceful, plant)),
        };
        Ok(Seated { own, care: plan.care.min(100), random: RandomBot::default() })
    }

    /// Whether this placement is the member's own (a draw only for members below full care, so
    /// that a member at 100% plays exactly as its bot).
    fn own_turn(&self, rng: &mut SplitMix64) -> bool {
        self.care >= 100 || rng.below(100) < usize::from(self.care)
    }
}

/// A furnishing tile by its printed name (or its id).
pub fn planted_tile(name: &str) -> Result<Furnishing, String> {
    Furnishing::all()
        .find(|t| t.printed_name().eq_ignore_ascii_case(name.trim()) || t.id() == name.trim())
        .ok_or_else(|| chronicle_game::bounded_message(&format!("no Caverna furnishing tile is called `{name}`")))
}

impl Bot for Seated {
    fn place_and_play(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<(Entry, Option<Box<Game>>)> {
        if self.own_turn(rng) {
            self.own.place_and_play(game, p, rng)
        } else {
            self.random.place_and_play(game, p, rng)
        }
    }

    fn place_reusing(
        &self,
        game: &Game,
        p: usize,
        rng: &mut SplitMix64,
        spare: &mut Option<Box<Game>>,
    ) -> Option<(Entry, Option<Box<Game>>)> {
        if self.own_turn(rng) {
            self.own.place_reusing(game, p, rng, spare)
        } else {
            self.random.place_reusing(game, p, rng, spare)
        }
    }

    fn harvest_choice(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> HarvestPhase {
        self.own.harvest_choice(game, p, rng)
    }

    fn feed(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<Entry> {
        self.own.feed(game, p, rng)
    }

    fn breed(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<Entry> {
        self.own.breed(game, p, rng)
    }

    fn keep(&self, game: &Game, rng: &mut SplitMix64) -> Option<Entry> {
        self.own.keep(game, rng)
    }
}

/// Whether a placement that led from `before` to `after` built `tile` for player `p`.
pub(super) fn builds(before: &Game, after: &Game, p: usize, tile: Furnishing) -> bool {
    !before.player(p).owns(tile) && after.player(p).owns(tile)
}

/// What a placement that builds the planted tile is worth to a seat leaning `leaning`: keen
/// seats take it over anything else; averse seats never take it (`None`).
pub(super) fn planted_bonus(leaning: Leaning) -> Option<f64> {
    match leaning {
        Leaning::Keen => Some(KEEN_BONUS),
        Leaning::Averse => None,
    }
}

/// Larger than any difference the strategy bots' valuation makes between two placements.
const KEEN_BONUS: f64 = 1000.0;

#[cfg(test)]
mod tests {
    use chronicle_game::pool::{pool, seating};

    use super::*;
    use crate::notation::FurnishingSet;

    /// A planted game: the keen seat builds the planted tile, no averse seat does, and the
    /// log names the pool members and replays as the complete game the bots played.
    #[test]
    fn a_keen_pool_member_builds_the_planted_tile_and_averse_members_never_choose_it() {
        let members = pool(&["weapons", "peaceful"], 7);
        let tile = planted_tile("Weaving Parlor").expect("a printed tile");
        let mut built_by_keen = 0;
        for seed in 0..6 {
            let plans = seating(&members, 3, seed, Some("Weaving Parlor")).expect("seats");
            let sim = crate::bots::simulate_seated(&plans, FurnishingSet::Full, seed).expect("a complete game");
            for (p, plan) in plans.iter().enumerate() {
                let owns = sim.game.player(p).owns(tile);
                match plan.plant.as_ref().map(|(_, l)| *l) {
                    Some(Leaning::Keen) => built_by_keen += usize::from(owns),
                    Some(Leaning::Averse) if plan.care == 100 => assert!(!owns, "{} is averse", plan.name),
                    _ => {}
                }
            }
            let log = sim.log();
            let names: Vec<&str> =
                log["setup"]["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
            assert_eq!(names, plans.iter().map(|p| p.name.as_str()).collect::<Vec<_>>());
            let verdict = crate::verdict::verdict(&crate::replay::replay(log.to_string().as_bytes()));
            assert_eq!(verdict.status, chronicle_game::Status::Complete);
        }
        assert!(built_by_keen >= 4, "the keen seat builds the tile in most games: {built_by_keen} of 6");
    }

    #[test]
    fn a_plant_names_a_printed_tile() {
        assert_eq!(planted_tile("weaving parlor").map(|t| t.id()), Ok("weaving_parlor"));
        assert!(planted_tile("Golden Goose").is_err());
    }
}
