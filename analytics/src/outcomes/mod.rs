//! Win rate and score margin by what players did, for games whose engines report score rows
//! and per-player counters (Village, Above and Below): game-agnostic, over an
//! [`OutcomeCorpus`] of complete games.
//!
//! **What these control for: nothing.** Every figure describes the player-games that share a
//! value (3 cities visited, points mostly from customers, seat 2). Who plays matters: strong
//! players both win and, say, travel more, so a higher win rate at 4 cities is not the effect of
//! travelling. Use them to see what winners did, not what makes players win.
//!
//! - **Win rate**: wins over player-games, with a 95% Wilson interval ([`Rate`]); a shared win
//!   counts for every winner.
//! - **Margin**: own total minus the mean of the opponents' totals, averaged over the group,
//!   with a 95% normal interval from the sample variance ([`Mean`]). 0 is an average result.
//! - **Solo games** have no opponent: they enter none of the statistics here and are counted in
//!   [`OutcomeReport::solo_games`].
//!
//! The corpora are small (thousands of games, not millions), so a query reads every kept game:
//! one pass plus a sort per counter (docs/performance.md has the time for 100,000 player-games).

mod filter;
mod groups;
mod input;
mod mean;

use std::collections::BTreeMap;

pub use filter::OutcomeFilter;
pub use groups::{main_source, ValueGroup, MAX_GROUPS};
pub use input::{GameOutcome, OutcomeCorpus, PlayerOutcome};
pub use mean::{mean_of, Mean};

use crate::general::{score_stats, ScoreStats};
use crate::rate::Rate;
use groups::{margin, value_groups, GroupAcc};
use input::KeptGame;

/// How a simulated game's `meta.source` begins (`chronicle simulate` writes `simulate:` and its
/// bots).
pub const SIMULATED_SOURCE: &str = "simulate:";
use mean::MeanAcc;

/// A counter's groups by value.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterGroups {
    pub counter: String,
    /// Player-games with this counter (games stored before counters existed have none).
    pub player_games: u64,
    pub groups: Vec<ValueGroup>,
}

/// The player-games whose main source of points (the row with the most points) is `row`.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceGroup {
    pub row: String,
    pub win_rate: Rate,
    pub margin: Mean,
}

/// Mean points of a score row, winners against the other players.
#[derive(Clone, Debug, PartialEq)]
pub struct RowPoints {
    pub row: String,
    pub winners: Mean,
    pub others: Mean,
}

/// Win rate of a seat (0-based) in games of one size, against the `1 / players` of an even game.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatOutcome {
    pub player_count: u8,
    pub seat: u8,
    pub win_rate: Rate,
    pub expected: f64,
}

/// Everything an outcome query answers.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeReport {
    /// Multiplayer games selected.
    pub games: u64,
    /// Of `games`, those Chronicle's bots played (`meta.source` starting `simulate:`).
    pub simulated_games: u64,
    /// Of `games`, those whose component data is labelled synthetic (not the printed game's).
    pub synthetic_games: u64,
    /// Simulated games left out because games played by people exist (see
    /// [`OutcomeFilter::include_simulated`]); not in `games`.
    pub simulated_left_out: u64,
    pub player_games: u64,
    /// Solo games that pass the source filters (and `min_players` ≤ 1); not in any statistic.
    pub solo_games: u64,
    pub counters: Vec<CounterGroups>,
    /// Score rows that are some player's main source, in printed order.
    pub main_sources: Vec<SourceGroup>,
    pub rows: Vec<RowPoints>,
    pub seats: Vec<SeatOutcome>,
    /// Final totals of the selected player-games.
    pub scores: ScoreStats,
}

/// One selected player-game with its margin.
struct Seen<'a> {
    seat: u8,
    players: u8,
    winner: bool,
    total: i64,
    margin: f64,
    rows: &'a [Option<i64>],
    counters: &'a [Option<i64>],
}

/// What the selected multiplayer games are: how many, how many simulated, how many on
/// synthetic component data; and how many simulated games the default left out.
#[derive(Default)]
struct Composition {
    games: u64,
    simulated: u64,
    synthetic: u64,
    left_out: u64,
}

fn is_simulated(g: &KeptGame) -> bool {
    g.source.as_deref().is_some_and(|s| s.starts_with(SIMULATED_SOURCE))
}

fn selected<'a>(corpus: &'a OutcomeCorpus, f: &OutcomeFilter) -> (Vec<Seen<'a>>, Composition, u64) {
    let (mut seen, mut games, mut solo) = (Vec::new(), Composition::default(), 0);
    let big_enough = |g: &KeptGame| g.players.len() >= usize::from(f.min_players.max(2));
    // Simulated and real games are not mixed unless asked (see `OutcomeFilter::include_simulated`).
    let by_default = !f.include_simulated && f.source.is_none() && f.exclude_source.is_none();
    let real_only = by_default && corpus.games.iter().any(|g| !is_simulated(g));
    for g in corpus.games.iter().filter(|g| f.source_matches(g)) {
        if real_only && is_simulated(g) {
            games.left_out += 1;
            continue;
        }
        if g.players.len() == 1 && f.min_players <= 1 {
            solo += 1;
        }
        if !big_enough(g) {
            continue;
        }
        games.games += 1;
        games.simulated += u64::from(is_simulated(g));
        games.synthetic += u64::from(g.synthetic);
        let totals: Vec<i64> = g.players.iter().map(|p| p.total).collect();
        let players = u8::try_from(totals.len()).unwrap_or(u8::MAX);
        for (i, p) in g.players.iter().enumerate() {
            let Some(margin) = margin(&totals, i) else { continue };
            let (rows, counters) = (&p.rows[..], &p.counters[..]);
            seen.push(Seen { seat: p.seat, players, winner: p.winner, total: p.total, margin, rows, counters });
        }
    }
    (seen, games, solo)
}

fn by_counter(corpus: &OutcomeCorpus, seen: &[Seen<'_>], min_sample: u64) -> Vec<CounterGroups> {
    let values = |c: usize| -> Vec<(i64, bool, f64)> {
        seen.iter().filter_map(|s| s.counters.get(c).copied().flatten().map(|v| (v, s.winner, s.margin))).collect()
    };
    (corpus.counter_ids.iter().enumerate())
        .map(|(c, id)| {
            let v = values(c);
            CounterGroups { counter: id.clone(), player_games: v.len() as u64, groups: value_groups(v, min_sample) }
        })
        .collect()
}

fn by_source(corpus: &OutcomeCorpus, seen: &[Seen<'_>], min_sample: u64) -> Vec<SourceGroup> {
    let mut acc = vec![GroupAcc::default(); corpus.row_ids.len()];
    for s in seen {
        if let Some(g) = main_source(s.rows).and_then(|r| acc.get_mut(r)) {
            g.add(s.winner, s.margin);
        }
    }
    let rows = corpus.row_ids.iter().zip(acc).filter(|(_, a)| a.win_rate(0).n > 0);
    rows.map(|(row, a)| SourceGroup {
        row: row.clone(),
        win_rate: a.win_rate(min_sample),
        margin: a.margin(min_sample),
    })
    .collect()
}

fn row_points(corpus: &OutcomeCorpus, seen: &[Seen<'_>], min_sample: u64) -> Vec<RowPoints> {
    let mut acc = vec![(MeanAcc::default(), MeanAcc::default()); corpus.row_ids.len()];
    for s in seen {
        for (a, points) in acc.iter_mut().zip(s.rows) {
            if let Some(p) = points {
                if s.winner { &mut a.0 } else { &mut a.1 }.add(*p as f64);
            }
        }
    }
    (corpus.row_ids.iter().zip(acc))
        .map(|(row, (w, o))| RowPoints {
            row: row.clone(),
            winners: w.finish(min_sample),
            others: o.finish(min_sample),
        })
        .collect()
}

fn by_seat(seen: &[Seen<'_>], min_sample: u64) -> Vec<SeatOutcome> {
    let mut acc: BTreeMap<(u8, u8), (u64, u64)> = BTreeMap::new();
    for s in seen {
        let a = acc.entry((s.players, s.seat)).or_default();
        a.0 += u64::from(s.winner);
        a.1 += 1;
    }
    acc.into_iter()
        .map(|((player_count, seat), (wins, n))| SeatOutcome {
            player_count,
            seat,
            win_rate: Rate::new(wins, n, min_sample),
            expected: 1.0 / f64::from(player_count.max(1)),
        })
        .collect()
}

fn scores(seen: &[Seen<'_>], bucket_width: u32) -> ScoreStats {
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    for s in seen {
        *counts.entry(s.total).or_default() += 1;
    }
    score_stats(&counts.into_iter().collect::<Vec<_>>(), bucket_width)
}

impl OutcomeCorpus {
    /// Every outcome statistic over the games `f` selects.
    pub fn report(&self, f: &OutcomeFilter) -> OutcomeReport {
        let (seen, games, solo_games) = selected(self, f);
        OutcomeReport {
            games: games.games,
            simulated_games: games.simulated,
            synthetic_games: games.synthetic,
            simulated_left_out: games.left_out,
            player_games: seen.len() as u64,
            solo_games,
            counters: by_counter(self, &seen, f.min_sample),
            main_sources: by_source(self, &seen, f.min_sample),
            rows: row_points(self, &seen, f.min_sample),
            seats: by_seat(&seen, f.min_sample),
            scores: scores(&seen, f.bucket_width),
        }
    }
}

#[cfg(test)]
mod tests;
