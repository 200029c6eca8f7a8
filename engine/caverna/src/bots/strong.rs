//! The strong bot (`strong`): a search over a placement's candidates by playouts.
//!
//! Caverna hides only the order of the round cards not yet revealed and the harvest tokens of
//! the rounds not yet begun (`docs/rules/caverna-reference.md` B.3, B.4, C.2): everything else
//! is on the table. The search is information-set Monte Carlo with determinisations: each
//! playout first deals the hidden part again ([`determinise`]: the unrevealed cards of each
//! stage shuffled among their positions, the unrevealed tokens among theirs), so the bot never
//! uses the log's own order of what is still face down.
//!
//! - **Candidates**: the placements the strategy bots' generator finds (every free space, within
//!   [`StrategyBot`]'s limits), kept by the best values of both styles' evaluations
//!   ([`CANDIDATES`] in all, half the best for each style), plus any entry the caller must
//!   have estimated (the move played, in an analysis).
//! - **Playouts**: each candidate is applied to the determinised position and the game is
//!   played to its end by strategy bots (a style drawn per seat and playout, with smaller
//!   limits: [`playout_bot`]); the result is every seat's final score.
//! - **Allocation**: successive halving over the budget (playouts per decision): in each of
//!   ⌈log₂ candidates⌉ rounds the candidates left share that round's playouts equally, and the
//!   lower half by mean final points is dropped. Every candidate of a round is played out on the
//!   same determinisations and bot seeds (common random numbers), so that two candidates differ
//!   by their move and not by their luck, and the difference of two estimates has a paired
//!   spread ([`Estimate::paired_difference`]).
//!
//! The bot chooses the candidate with the most mean final points; ties go to the higher win
//! share, then to the earlier candidate. The same game, seed and budget always give the same
//! choice.

use std::sync::Arc;

use crate::game::Game;
use crate::legal;
use crate::notation::Entry;
use crate::setup::{stage_layout, Setup};
use crate::shuffle::SplitMix64;

use super::random::free_spaces;
use super::strategy::Subset;
use super::{play_on, Bot, StrategyBot, Style};

pub use chronicle_game::analysis::{DEFAULT_BUDGET, MAX_BUDGET};

/// Candidates searched at a decision (before the move an analysis adds).
pub const CANDIDATES: usize = 8;

/// The strong bot of a seat.
#[derive(Clone, Copy, Debug)]
pub struct StrongBot {
    /// Playouts per decision, at least 1 and at most [`MAX_BUDGET`].
    pub budget: u32,
}

impl StrongBot {
    pub fn new(budget: u32) -> StrongBot {
        StrongBot { budget: budget.clamp(1, MAX_BUDGET) }
    }
}

impl Bot for StrongBot {
    fn place_and_play(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<(Entry, Option<Box<Game>>)> {
        let found = search(game, p, self.budget, rng.next_u64(), None);
        found.best().map(|e| (e.entry.clone(), None))
    }
}

/// The estimate of one candidate after its playouts.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub entry: Entry,
    /// The player's final points in each playout, by playout number (playout `i` of every
    /// candidate used the same determinisation and bot seeds).
    pub points: Vec<f64>,
    /// The player's share of the win in each playout (1, or 1/k for a k-way tie, or 0).
    pub wins: Vec<f64>,
}

impl Estimate {
    pub fn playouts(&self) -> usize {
        self.points.len()
    }

    pub fn mean_points(&self) -> f64 {
        mean(&self.points)
    }

    pub fn win_chance(&self) -> f64 {
        mean(&self.wins)
    }

    /// The standard error of the mean final points (0 with fewer than two playouts).
    pub fn points_error(&self) -> f64 {
        standard_error(&self.points)
    }

    /// `other`'s mean final points less this one's over the playouts both had (the same
    /// determinisations), with the standard error of that paired difference.
    pub fn paired_difference(&self, other: &Estimate) -> (f64, f64) {
        let n = self.points.len().min(other.points.len());
        let diffs: Vec<f64> = (0..n).map(|i| other.points[i] - self.points[i]).collect();
        (mean(&diffs), standard_error(&diffs))
    }
}

/// A decision searched: every candidate's estimate, best first.
#[derive(Clone, Debug, Default)]
pub struct Search {
    pub estimates: Vec<Estimate>,
    /// Playouts run in all.
    pub playouts: u64,
}

impl Search {
    pub fn best(&self) -> Option<&Estimate> {
        self.estimates.first()
    }

    /// The estimate of `entry`, when it was a candidate.
    pub fn of(&self, entry: &Entry) -> Option<&Estimate> {
        self.estimates.iter().find(|e| &e.entry == entry)
    }
}

/// Searches the placement of player `p` (who is to move in `game`) with `budget` playouts,
/// all drawn from `seed`. `must` is an entry that gets an estimate whatever its first values
/// (an analysis's move played): it is played out as often as the best candidate. Candidates
/// whose playouts cannot finish (a generator bug, never the input) are dropped.
pub fn search(game: &Game, p: usize, budget: u32, seed: u64, must: Option<&Entry>) -> Search {
    let budget = budget.clamp(1, MAX_BUDGET) as usize;
    let mut rng = SplitMix64::new(seed);
    let mut candidates = candidates(game, p, &mut rng);
    if let Some(entry) = must.filter(|m| !candidates.contains(m)) {
        candidates.push(entry.clone());
    }
    // Enough for every round's share (each at least one playout a round).
    let seeds: Vec<u64> = (0..budget + 2 * CANDIDATES).map(|_| rng.next_u64()).collect();
    let mut estimates: Vec<Estimate> =
        candidates.into_iter().map(|entry| Estimate { entry, points: Vec::new(), wins: Vec::new() }).collect();
    let mut left: Vec<usize> = (0..estimates.len()).collect();
    let rounds = (usize::BITS - left.len().saturating_sub(1).leading_zeros()).max(1) as usize;
    let mut used = 0usize;
    let mut playouts = 0u64;
    for round in 0..rounds {
        // This round's part of what is left, shared by the candidates left (at least one each).
        let share = ((budget - used.min(budget)) / (rounds - round) / left.len().max(1)).max(1);
        let from = estimates.iter().map(Estimate::playouts).max().unwrap_or(0);
        for i in from..from + share {
            let Some(&seed) = seeds.get(i) else { break };
            playouts += play_round(game, p, seed, &mut estimates, &left);
        }
        used += share * left.len();
        left.retain(|&c| estimates[c].playouts() > 0);
        left.sort_by(|&a, &b| compare(&estimates[b], &estimates[a]).then(a.cmp(&b)));
        if round + 1 < rounds {
            left.truncate(left.len().div_ceil(2).max(1));
        }
    }
    // The move an analysis asked about gets as many playouts as the best, on the same seeds.
    if let (Some(entry), Some(&best)) = (must, left.first()) {
        if let Some(m) = estimates.iter().position(|e| &e.entry == entry) {
            let (have, want) = (estimates[m].playouts(), estimates[best].playouts());
            for &seed in seeds.iter().take(want).skip(have) {
                playouts += play_round(game, p, seed, &mut estimates, &[m]);
            }
        }
    }
    let mut order: Vec<usize> = (0..estimates.len()).filter(|&c| estimates[c].playouts() > 0).collect();
    order.sort_by(|&a, &b| {
        let (ea, eb) = (&estimates[a], &estimates[b]);
        // Candidates that reached the last round first, then by their estimates.
        left.contains(&b).cmp(&left.contains(&a)).then(compare(eb, ea)).then(a.cmp(&b))
    });
    let mut slots: Vec<Option<Estimate>> = estimates.into_iter().map(Some).collect();
    Search { estimates: order.into_iter().filter_map(|c| slots[c].take()).collect(), playouts }
}

/// Plays every candidate in `which` out once on the determinisation and bot seeds of `seed`;
/// returns the playouts run.
fn play_round(game: &Game, p: usize, seed: u64, estimates: &mut [Estimate], which: &[usize]) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let dealt = determinise(game, &mut rng);
    let styles: Vec<Style> =
        (0..game.setup().players()).map(|_| if rng.below(2) == 0 { Style::Weapons } else { Style::Peaceful }).collect();
    let bots_seed = rng.next_u64();
    let mut run = 0;
    for &c in which {
        let Some(scores) = playout(&dealt, &estimates[c].entry, &styles, bots_seed) else { continue };
        let Some(&mine) = scores.get(p) else { continue };
        let top = scores.iter().copied().fold(i64::MIN, i64::max);
        let tied = scores.iter().filter(|&&s| s == top).count().max(1);
        let e = &mut estimates[c];
        e.points.push(mine as f64);
        e.wins.push(if mine == top { 1.0 / tied as f64 } else { 0.0 });
        run += 1;
    }
    run
}

/// The final scores after `entry` is played in `dealt` and strategy bots of `styles` play the
/// game out from `bots_seed`; `None` if the entry or a playout is refused (a generator bug).
fn playout(dealt: &Game, entry: &Entry, styles: &[Style], bots_seed: u64) -> Option<Vec<i64>> {
    let mut game = Box::new(dealt.clone());
    game.play_entry(entry).ok()?;
    let bots: Vec<StrategyBot> = styles.iter().map(|&s| playout_bot(s)).collect();
    let seats: Vec<&dyn Bot> = bots.iter().map(|b| b as &dyn Bot).collect();
    play_on(&mut game, &seats, &mut SplitMix64::new(bots_seed), None).ok()?;
    game.results().map(|(results, _)| results.iter().map(|r| r.score.total).collect())
}

/// A playout's bot: a strategy bot of `style` that looks at fewer options per space than a
/// seated one (a playout is one of many; its speed buys more of them).
fn playout_bot(style: Style) -> StrategyBot {
    let mut bot = StrategyBot::new(style);
    bot.limits.options_alone = 3;
    bot.limits.options_per_part = 1;
    bot.limits.loot_sets = 2;
    bot.limits.per_space = 4;
    bot
}

/// The placements searched: the best [`CANDIDATES`] / 2 by each style's evaluation of the
/// position after them, without repeats (fewer when fewer are legal).
fn candidates(game: &Game, p: usize, rng: &mut SplitMix64) -> Vec<Entry> {
    let styles = [StrategyBot::new(Style::Weapons), StrategyBot::new(Style::Peaceful)];
    let mut found: Vec<(Entry, [f64; 2])> = Vec::new();
    for space in free_spaces(game) {
        let outcomes = legal::space_outcomes(game, p, space, &styles[0].limits, &mut Subset { rng: &mut *rng });
        for (entry, after) in outcomes {
            if !found.iter().any(|(e, _)| e == &entry) {
                let values = [styles[0].value(&after, p), styles[1].value(&after, p)];
                found.push((entry, values));
            }
        }
    }
    let mut chosen: Vec<Entry> = Vec::new();
    for k in [0, 1] {
        let mut by: Vec<&(Entry, [f64; 2])> = found.iter().collect();
        by.sort_by(|a, b| b.1[k].total_cmp(&a.1[k]));
        let mut taken = 0;
        for (entry, _) in by {
            if taken == CANDIDATES / 2 {
                break;
            }
            if !chosen.contains(entry) {
                chosen.push(entry.clone());
                taken += 1;
            }
        }
    }
    if chosen.is_empty() {
        // Nothing within the strategy bots' limits: the first legal placements.
        chosen = legal::places(game, p, &legal::Limits::default(), &mut legal::Enumerate);
        chosen.truncate(CANDIDATES);
    }
    chosen
}

/// `game` with what is still face down dealt again from `rng`: the round cards of the rounds
/// after the current one, shuffled among the positions of their own stage (the round-4 card
/// stays: B.3), and the harvest tokens of those rounds among themselves.
pub fn determinise(game: &Game, rng: &mut SplitMix64) -> Game {
    let mut setup: Setup = (*game.setup).clone();
    let players = setup.players();
    if players > 1 {
        let layout = stage_layout(players);
        for stage in 1..=4u8 {
            let hidden: Vec<usize> = (game.round_index + 1..setup.round_cards.len())
                .filter(|&i| layout.get(i) == Some(&stage) && i != 3)
                .collect();
            let mut cards: Vec<_> = hidden.iter().map(|&i| setup.round_cards[i]).collect();
            rng.shuffle(&mut cards);
            for (&i, card) in hidden.iter().zip(cards) {
                setup.round_cards[i] = card;
            }
        }
        let current = game.round();
        let hidden: Vec<usize> =
            setup.token_rounds().iter().enumerate().filter(|(_, &r)| r > current).map(|(i, _)| i).collect();
        let mut tokens: Vec<_> = hidden.iter().filter_map(|&i| setup.harvest_tokens.get(i).copied()).collect();
        rng.shuffle(&mut tokens);
        for (&i, token) in hidden.iter().zip(tokens) {
            setup.harvest_tokens[i] = token;
        }
    }
    let mut dealt = game.clone();
    dealt.setup = Arc::new(setup);
    dealt.set_record_events(false);
    dealt
}

/// Higher mean final points first, then the higher win share.
fn compare(a: &Estimate, b: &Estimate) -> std::cmp::Ordering {
    a.mean_points().total_cmp(&b.mean_points()).then(a.win_chance().total_cmp(&b.win_chance()))
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn standard_error(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64;
    (var / n as f64).sqrt()
}
