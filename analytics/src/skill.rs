//! Statistics that separate strategy from skill: every player's Weng-Lin rating
//! ([`crate::ratings`]) and, for each furnishing tile and for being armed, the raw win-rate
//! difference with its Newcombe interval beside the effect controlled for who plays
//! ([`crate::controlled`]: within player, holding the rating gap to the opponents, the seat and
//! the player count fixed). Computed from complete, legal games only.

use std::collections::HashMap;

use chronicle_caverna::furnishing::Furnishing;

use crate::controlled::{Effect, Model, Row, ADVANTAGE_UNIT};
use crate::rate::{newcombe, Difference, Rate, DEFAULT_MIN_SAMPLE};
use crate::ratings::{RatedGame, RatedSeat, Ratings};

/// One seat of a complete game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillSeat {
    /// The player's identity key ([`crate::ratings::player_key`]).
    pub player: String,
    pub rank: u8,
    pub winner: bool,
    pub total: i64,
    /// Furnishing tiles built (each once).
    pub tiles: Vec<Furnishing>,
    /// Held a weapon at some point.
    pub armed: bool,
}

/// One complete game, seats in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillGame {
    pub game_id: i64,
    pub played_at: Option<String>,
    pub seats: Vec<SkillSeat>,
}

/// What a strategy is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Building this furnishing tile.
    Tile(Furnishing),
    /// Holding a weapon at some point of the game.
    Armed,
}

impl Strategy {
    pub fn id(self) -> String {
        match self {
            Strategy::Tile(t) => t.id().to_owned(),
            Strategy::Armed => "armed".to_owned(),
        }
    }

    fn used(self, seat: &SkillSeat) -> bool {
        match self {
            Strategy::Tile(t) => seat.tiles.contains(&t),
            Strategy::Armed => seat.armed,
        }
    }
}

/// A strategy's raw and controlled effects on winning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrategyEffect {
    pub strategy: Strategy,
    /// Win rate of the player-games that used it, and of those that did not (multiplayer games).
    pub used: Rate,
    pub not_used: Rate,
    /// `used − not_used` with Newcombe's 95% interval.
    pub raw: Option<Difference>,
    pub controlled: Effect,
}

/// Ratings and the strategies' effects over a set of complete games.
#[derive(Clone, Debug)]
pub struct Skill {
    pub ratings: Ratings,
    pub effects: Vec<StrategyEffect>,
    pub games: usize,
}

impl Skill {
    pub fn compute(games: &[SkillGame]) -> Skill {
        let rated: Vec<RatedGame> = games
            .iter()
            .map(|g| RatedGame {
                game_id: g.game_id,
                played_at: g.played_at.clone(),
                seats: g.seats.iter().map(|s| RatedSeat { player: s.player.clone(), rank: s.rank }).collect(),
            })
            .collect();
        let ratings = Ratings::compute(rated);
        let mut index: HashMap<&str, u32> = HashMap::new();
        let mut base = Vec::new();
        for g in games.iter().filter(|g| g.seats.len() >= 2) {
            let mu: Vec<f64> =
                (0..g.seats.len()).map(|i| ratings.before(g.game_id, i as u8).map_or(25.0, |r| r.mu)).collect();
            let mean_total = g.seats.iter().map(|s| s.total as f64).sum::<f64>();
            let n = g.seats.len() as f64;
            for (i, s) in g.seats.iter().enumerate() {
                let next = index.len() as u32;
                let player = *index.entry(s.player.as_str()).or_insert(next);
                let others = (mu.iter().sum::<f64>() - mu[i]) / (n - 1.0);
                let margin = s.total as f64 - (mean_total - s.total as f64) / (n - 1.0);
                base.push((
                    s,
                    Row {
                        game_id: g.game_id,
                        player,
                        player_count: g.seats.len() as u8,
                        seat: i as u8,
                        treated: false,
                        advantage: (mu[i] - others) / ADVANTAGE_UNIT,
                        won: s.winner,
                        margin,
                    },
                ));
            }
        }
        let rows: Vec<Row> = base.iter().map(|(_, r)| *r).collect();
        let model = Model::new(&rows);
        let strategies = Furnishing::all().map(Strategy::Tile).chain(std::iter::once(Strategy::Armed));
        let effects = strategies
            .map(|strategy| {
                let treated: Vec<bool> = base.iter().map(|(s, _)| strategy.used(s)).collect();
                let count = |t: bool| {
                    let (mut wins, mut n) = (0u64, 0u64);
                    for (r, _) in rows.iter().zip(&treated).filter(|(_, &u)| u == t) {
                        n += 1;
                        wins += u64::from(r.won);
                    }
                    (wins, n)
                };
                let ((k1, n1), (k0, n0)) = (count(true), count(false));
                StrategyEffect {
                    strategy,
                    used: Rate::new(k1, n1, DEFAULT_MIN_SAMPLE),
                    not_used: Rate::new(k0, n0, DEFAULT_MIN_SAMPLE),
                    raw: newcombe(k1, n1, k0, n0),
                    controlled: model.effect(&treated),
                }
            })
            .collect();
        Skill { ratings, effects, games: games.len() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: &str, rank: u8, total: i64, tiles: &[Furnishing]) -> SkillSeat {
        SkillSeat { player: player.into(), rank, winner: rank == 1, total, tiles: tiles.to_vec(), armed: false }
    }

    /// Every tile and "armed" get an entry; counts and the raw difference come from the seats.
    #[test]
    fn skill_lists_every_strategy_with_raw_and_controlled_effects() {
        let games: Vec<SkillGame> = (0..40)
            .map(|g| SkillGame {
                game_id: g,
                played_at: None,
                seats: vec![
                    seat(
                        "a",
                        1 + (g % 2) as u8,
                        60 - (g % 2) * 20,
                        if g % 3 == 0 { &[Furnishing::Carpenter] } else { &[] },
                    ),
                    seat("b", 2 - (g % 2) as u8, 40 + (g % 2) * 20, &[]),
                ],
            })
            .collect();
        let skill = Skill::compute(&games);
        assert_eq!(skill.effects.len(), Furnishing::all().count() + 1);
        let carpenter = skill.effects.iter().find(|e| e.strategy == Strategy::Tile(Furnishing::Carpenter)).unwrap();
        assert_eq!(carpenter.used.n, 14);
        assert_eq!(carpenter.used.successes, 7, "a wins the even games; 0, 6, 12… are both");
        assert_eq!(carpenter.not_used.n, 66);
        assert!(carpenter.raw.is_some());
        assert_eq!(carpenter.controlled.player_games, 80);
        assert_eq!(skill.ratings.table().len(), 2);
    }
}
