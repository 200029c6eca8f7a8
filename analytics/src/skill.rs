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
    /// The name written in this game's log.
    pub name: String,
    pub rank: u8,
    pub winner: bool,
    pub total: i64,
    /// Furnishing tiles built (each once).
    pub tiles: Vec<Furnishing>,
    /// Held a weapon at some point.
    pub armed: bool,
    /// What the questions ([`crate::questions`]) read beyond the strategies.
    pub features: SeatFeatures,
}

/// What a seat did, as the questions read it, for any game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatFeatures {
    /// The score row that gave the player the most points (its index in the game's score
    /// rows; the first in the pad's order on a tie); `None` when no row gave points.
    pub main_source: Option<u8>,
    /// The game's counters, in its spec's order (Village, Above and Below; empty for Caverna).
    pub counters: Vec<i64>,
    /// The round in which the player first held a weapon (Caverna); `None` when never armed.
    pub first_armed: Option<u8>,
}

/// One complete game, seats in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillGame {
    pub game_id: i64,
    pub played_at: Option<String>,
    /// The log's `meta.source` (the simulator writes `simulate:` and its bots).
    pub source: Option<String>,
    /// The component data the log declares is labelled synthetic.
    pub synthetic_data: bool,
    pub seats: Vec<SkillSeat>,
}

/// What a set of multiplayer player-games is made of (what every answer says it is computed
/// over).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SkillCorpus {
    pub player_games: u64,
    pub games: u64,
    /// Player-games of games whose `meta.source` starts with `simulate`.
    pub simulated: u64,
    /// Player-games of games that declare synthetic component data.
    pub synthetic: u64,
    /// The simulated games' sources (which bots played) with their player-games, most first.
    pub simulated_by: Vec<(String, u64)>,
}

/// What a strategy is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StrategyEffect {
    pub strategy: Strategy,
    /// Win rate of the player-games that used it, and of those that did not (multiplayer games).
    pub used: Rate,
    pub not_used: Rate,
    /// `used − not_used` with Newcombe's 95% interval.
    pub raw: Option<Difference>,
    pub controlled: Effect,
}

/// Player-games that did something against those that did not: raw and controlled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// Win rates of the player-games that did, and of those that did not.
    pub used: Rate,
    pub not_used: Rate,
    /// `used − not_used` with Newcombe's 95% interval.
    pub raw: Option<Difference>,
    /// Controlled for who plays ([`crate::controlled`]).
    pub controlled: Effect,
}

/// One multiplayer player-game as a question reads it.
#[derive(Clone, Copy, Debug)]
pub struct Seen<'a> {
    pub row: &'a Row,
    pub features: &'a SeatFeatures,
    /// The strategies it used: bit `k` for the `k`-th of [`strategies`].
    pub strategies: u64,
}

/// Ratings and the strategies' effects over a set of complete games.
#[derive(Clone, Debug)]
pub struct Skill {
    pub ratings: Ratings,
    /// Over every multiplayer game.
    pub effects: Vec<StrategyEffect>,
    pub games: usize,
    /// Each player key's name as written in its latest game (by the order games were given).
    pub names: HashMap<String, String>,
    /// One row per multiplayer player-game, with the strategies it used (bit `k` for the
    /// `k`-th of [`strategies`]) and the lowest rating before the game at its table.
    rows: Vec<Row>,
    used: Vec<u64>,
    table_floor: Vec<f64>,
    /// Per row, what the questions read.
    features: Vec<SeatFeatures>,
    /// Per row, whether its game declares synthetic component data.
    synthetic: Vec<bool>,
    /// Per row, the game's `meta.source` as an index into `sources`.
    source: Vec<Option<u32>>,
    sources: Vec<String>,
}

/// Which multiplayer games the effects are estimated over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EffectsFilter {
    /// Only tables whose every player's rating before the game (`mu − 3·sigma`) is at least
    /// this (a table of established, strong players, as rating-floor statistics elsewhere;
    /// new players are at 0).
    pub min_rating: Option<f64>,
    /// Only games whose `meta.source` starts with this (`simulate`: every simulated game).
    pub source: Option<String>,
    /// Leave out games whose `meta.source` starts with this (e.g. `simulate`).
    pub exclude_source: Option<String>,
}

/// How a simulated game's `meta.source` begins.
pub const SIMULATED: &str = "simulate";

/// Every strategy, in the order of [`Skill::effects`]: each furnishing tile, then armed.
pub fn strategies() -> impl Iterator<Item = Strategy> {
    Furnishing::all().map(Strategy::Tile).chain(std::iter::once(Strategy::Armed))
}

impl Skill {
    /// Over every game of `games`.
    pub fn compute(games: &[SkillGame]) -> Skill {
        Skill::compute_merged(games, &HashMap::new())
    }

    /// Over every game of `games` (given in any order, e.g. batch after batch), with the player
    /// keys that `aliases` names taken as the key they map to (merged identities).
    pub fn compute_merged<'a, I>(games: I, aliases: &HashMap<String, String>) -> Skill
    where
        I: IntoIterator<Item = &'a SkillGame>,
        I::IntoIter: Clone,
    {
        Skill::compute_for(games, aliases, true)
    }

    /// [`Skill::compute_merged`]; the strategies' effects over every game are computed only
    /// `with_strategies` (they are Caverna's: another game's corpus has the ratings and the
    /// questions' rows alone).
    pub fn compute_for<'a, I>(games: I, aliases: &HashMap<String, String>, with_strategies: bool) -> Skill
    where
        I: IntoIterator<Item = &'a SkillGame>,
        I::IntoIter: Clone,
    {
        let games = games.into_iter();
        let canonical = |player: &'a str| -> &str { aliases.get(player).map_or(player, String::as_str) };
        let rated: Vec<RatedGame> = games
            .clone()
            .map(|g| RatedGame {
                game_id: g.game_id,
                played_at: g.played_at.clone(),
                seats: g
                    .seats
                    .iter()
                    .map(|s| RatedSeat { player: canonical(&s.player).to_owned(), rank: s.rank })
                    .collect(),
            })
            .collect();
        let ratings = Ratings::compute(rated);
        let mut index: HashMap<&str, u32> = HashMap::new();
        let (mut rows, mut used, mut table_floor, mut source) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut features, mut synthetic) = (Vec::new(), Vec::new());
        let mut sources: Vec<String> = Vec::new();
        let all: Vec<Strategy> = strategies().collect();
        let mut count = 0;
        for g in games.clone().inspect(|_| count += 1).filter(|g| g.seats.len() >= 2) {
            let before: Vec<_> = (0..g.seats.len())
                .map(|i| ratings.before(g.game_id, i as u8).unwrap_or(crate::ratings::Rating::NEW))
                .collect();
            let mu: Vec<f64> = before.iter().map(|r| r.mu).collect();
            let floor = before.iter().map(|r| r.conservative()).fold(f64::INFINITY, f64::min);
            let mean_total = g.seats.iter().map(|s| s.total as f64).sum::<f64>();
            let n = g.seats.len() as f64;
            let code = g.source.as_ref().map(|text| match sources.iter().position(|s| s == text) {
                Some(k) => k as u32,
                None => {
                    sources.push(text.clone());
                    (sources.len() - 1) as u32
                }
            });
            for (i, s) in g.seats.iter().enumerate() {
                let next = index.len() as u32;
                let player = *index.entry(canonical(&s.player)).or_insert(next);
                let others = (mu.iter().sum::<f64>() - mu[i]) / (n - 1.0);
                let margin = s.total as f64 - (mean_total - s.total as f64) / (n - 1.0);
                rows.push(Row {
                    game_id: g.game_id,
                    player,
                    player_count: g.seats.len() as u8,
                    seat: i as u8,
                    treated: false,
                    advantage: (mu[i] - others) / ADVANTAGE_UNIT,
                    won: s.winner,
                    margin,
                });
                used.push(all.iter().enumerate().filter(|(_, st)| st.used(s)).fold(0u64, |m, (k, _)| m | 1 << k));
                table_floor.push(floor);
                features.push(s.features.clone());
                synthetic.push(g.synthetic_data);
                source.push(code);
            }
        }
        // The latest game's name: the first met walking back (one lookup per seat, one
        // allocation per player).
        let mut names: HashMap<String, String> = HashMap::new();
        let seats: Vec<&SkillSeat> = games.flat_map(|g| &g.seats).collect();
        for s in seats.into_iter().rev() {
            let key = canonical(&s.player);
            if !names.contains_key(key) {
                names.insert(key.to_owned(), s.name.clone());
            }
        }
        let mut skill = Skill {
            ratings,
            effects: Vec::new(),
            games: count,
            names,
            rows,
            used,
            table_floor,
            features,
            synthetic,
            source,
            sources,
        };
        if with_strategies {
            skill.effects = skill.effects_where(&EffectsFilter::default());
        }
        skill
    }

    /// The rows `filter` selects, by position.
    fn kept(&self, filter: &EffectsFilter) -> Vec<usize> {
        // Per source code, whether its text starts with the prefix (`None`: no condition).
        let starts = |prefix: &Option<String>| {
            prefix.as_deref().map(|p| self.sources.iter().map(|s| s.starts_with(p)).collect::<Vec<bool>>())
        };
        let (wanted, excluded) = (starts(&filter.source), starts(&filter.exclude_source));
        let has = |codes: &[bool], i: usize| self.source[i].is_some_and(|c| codes.get(c as usize) == Some(&true));
        (0..self.rows.len())
            .filter(|&i| filter.min_rating.is_none_or(|floor| self.table_floor[i] >= floor))
            .filter(|&i| wanted.as_deref().is_none_or(|w| has(w, i)))
            .filter(|&i| excluded.as_deref().is_none_or(|x| !has(x, i)))
            .collect()
    }

    /// What the multiplayer player-games `filter` selects are made of.
    pub fn corpus(&self, filter: &EffectsFilter) -> SkillCorpus {
        let keep = self.kept(filter);
        let mut by_source = vec![0u64; self.sources.len()];
        let mut c = SkillCorpus { player_games: keep.len() as u64, ..SkillCorpus::default() };
        let mut last_game = None;
        for &i in &keep {
            if last_game != Some(self.rows[i].game_id) {
                c.games += 1;
                last_game = Some(self.rows[i].game_id);
            }
            c.synthetic += u64::from(self.synthetic[i]);
            if let Some(code) = self.source[i].filter(|&k| self.sources[k as usize].starts_with(SIMULATED)) {
                c.simulated += 1;
                by_source[code as usize] += 1;
            }
        }
        let mut by: Vec<(String, u64)> = by_source
            .into_iter()
            .enumerate()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (self.sources[k].clone(), n))
            .collect();
        by.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        c.simulated_by = by;
        c
    }

    /// The multiplayer player-games `filter` selects, as the questions read them.
    pub fn seen(&self, filter: &EffectsFilter) -> Vec<Seen<'_>> {
        self.kept(filter)
            .into_iter()
            .map(|i| Seen { row: &self.rows[i], features: &self.features[i], strategies: self.used[i] })
            .collect()
    }

    /// Player-games for which `did` holds against the others, over the multiplayer games
    /// `filter` selects and `within` keeps (a player count, say). With `seat_free`, the
    /// controlled model holds no seat fixed (for questions about the seat itself).
    pub fn compare(
        &self,
        filter: &EffectsFilter,
        within: &dyn Fn(&Seen) -> bool,
        did: &dyn Fn(&Seen) -> bool,
        seat_free: bool,
    ) -> Comparison {
        let seen: Vec<Seen> = self.seen(filter).into_iter().filter(within).collect();
        let rows: Vec<Row> =
            seen.iter().map(|s| Row { seat: if seat_free { 0 } else { s.row.seat }, ..*s.row }).collect();
        let treated: Vec<bool> = seen.iter().map(did).collect();
        comparison(&rows, &treated, &Model::new(&rows))
    }

    /// The strategies' effects over the multiplayer games `filter` selects.
    pub fn effects_where(&self, filter: &EffectsFilter) -> Vec<StrategyEffect> {
        let keep = self.kept(filter);
        let rows: Vec<Row> = keep.iter().map(|&i| self.rows[i]).collect();
        let model = Model::new(&rows);
        strategies()
            .enumerate()
            .map(|(k, strategy)| {
                let treated: Vec<bool> = keep.iter().map(|&i| self.used[i] & (1 << k) != 0).collect();
                let c = comparison(&rows, &treated, &model);
                StrategyEffect { strategy, used: c.used, not_used: c.not_used, raw: c.raw, controlled: c.controlled }
            })
            .collect()
    }
}

/// The win rates of the treated rows and the others, their difference and the controlled effect.
fn comparison(rows: &[Row], treated: &[bool], model: &Model) -> Comparison {
    let count = |t: bool| {
        let (mut wins, mut n) = (0u64, 0u64);
        for (r, _) in rows.iter().zip(treated).filter(|(_, &u)| u == t) {
            n += 1;
            wins += u64::from(r.won);
        }
        (wins, n)
    };
    let ((k1, n1), (k0, n0)) = (count(true), count(false));
    Comparison {
        used: Rate::new(k1, n1, DEFAULT_MIN_SAMPLE),
        not_used: Rate::new(k0, n0, DEFAULT_MIN_SAMPLE),
        raw: newcombe(k1, n1, k0, n0),
        controlled: model.effect(treated),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: &str, rank: u8, total: i64, tiles: &[Furnishing]) -> SkillSeat {
        SkillSeat {
            player: player.into(),
            name: player.into(),
            rank,
            winner: rank == 1,
            total,
            tiles: tiles.to_vec(),
            armed: false,
            features: SeatFeatures::default(),
        }
    }

    /// Every tile and "armed" get an entry; counts and the raw difference come from the seats.
    #[test]
    fn skill_lists_every_strategy_with_raw_and_controlled_effects() {
        let games: Vec<SkillGame> = (0..40)
            .map(|g| SkillGame {
                game_id: g,
                played_at: None,
                source: None,
                synthetic_data: false,
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
        // A rating floor above everybody's leaves no game; at the floor of new players (0 and
        // below), the first game's table stays.
        let none = skill.effects_where(&EffectsFilter { min_rating: Some(100.0), ..EffectsFilter::default() });
        assert!(none.iter().all(|e| e.used.n + e.not_used.n == 0));
        let some = skill.effects_where(&EffectsFilter { min_rating: Some(-1.0), ..EffectsFilter::default() });
        assert!(some[0].used.n + some[0].not_used.n >= 2);
    }

    /// Merged identities are rated as one player, named by their latest game's name.
    #[test]
    fn merged_identities_are_one_rated_player() {
        let game = |id: i64, a: &str| SkillGame {
            game_id: id,
            played_at: None,
            source: None,
            synthetic_data: false,
            seats: vec![seat(a, 1, 50, &[]), seat("name:b", 2, 40, &[])],
        };
        let games = [game(1, "name:ana"), game(2, "id:ana-7")];
        let apart = Skill::compute(&games);
        assert_eq!(apart.ratings.table().len(), 3);
        let aliases: HashMap<String, String> = [("name:ana".to_owned(), "id:ana-7".to_owned())].into();
        let merged = Skill::compute_merged(&games, &aliases);
        assert_eq!(merged.ratings.table().len(), 2);
        assert_eq!(merged.ratings.player("id:ana-7").map(|p| p.games), Some(2));
        assert_eq!(merged.ratings.player("name:ana"), None);
        assert_eq!(merged.names.get("id:ana-7").map(String::as_str), Some("id:ana-7"), "the latest game's name");
        assert_eq!(merged.games, 2);
    }

    /// `meta.source` selects or leaves out games by prefix (one game in four is labelled
    /// simulated here); a source no game has selects nothing and leaves out nothing.
    #[test]
    fn effects_select_or_leave_out_games_by_their_source() {
        let games: Vec<SkillGame> = (0..40)
            .map(|g| SkillGame {
                game_id: g,
                played_at: None,
                source: (g % 4 == 0).then(|| "simulate:random".to_owned()),
                synthetic_data: false,
                seats: vec![seat("a", 1, 50, &[]), seat("b", 2, 40, &[])],
            })
            .collect();
        let skill = Skill::compute(&games);
        let n = |filter: EffectsFilter| {
            let e = &skill.effects_where(&filter)[0];
            e.used.n + e.not_used.n
        };
        let text = |s: &str| Some(s.to_owned());
        assert_eq!(n(EffectsFilter::default()), 80);
        assert_eq!(n(EffectsFilter { source: text("simulate:random"), ..EffectsFilter::default() }), 20);
        assert_eq!(n(EffectsFilter { exclude_source: text("simulate:random"), ..EffectsFilter::default() }), 60);
        assert_eq!(n(EffectsFilter { source: text("simulate"), ..EffectsFilter::default() }), 20, "a prefix");
        assert_eq!(n(EffectsFilter { exclude_source: text("simulate"), ..EffectsFilter::default() }), 60);
        assert_eq!(n(EffectsFilter { source: text("club"), ..EffectsFilter::default() }), 0);
        assert_eq!(n(EffectsFilter { exclude_source: text("club"), ..EffectsFilter::default() }), 80);
    }
}
