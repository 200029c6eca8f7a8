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
//! Every figure is a sum over buckets of games ([`tallied`]): a store keeps the buckets' tallies,
//! and a query adds up the few it selects, however many games are stored.

mod filter;
mod groups;
mod input;
mod mean;
mod tallied;

pub use filter::OutcomeFilter;
pub use groups::{main_source, ValueGroup, MAX_GROUPS};
pub use input::{GameOutcome, OutcomeCorpus, PlayerOutcome};
pub use mean::{mean_of, Mean};
pub use tallied::{report_from_buckets, OutcomeBucket, OUTCOME_TALLY_FORMAT};

use crate::general::ScoreStats;
use crate::rate::Rate;

/// How a simulated game's `meta.source` begins (`chronicle simulate` writes `simulate:` and its
/// bots).
pub const SIMULATED_SOURCE: &str = "simulate:";

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

impl OutcomeCorpus {
    /// Every outcome statistic over the games `f` selects (computed from the corpus's
    /// buckets, as a store's tallies are: [`report_from_buckets`]).
    pub fn report(&self, f: &OutcomeFilter) -> OutcomeReport {
        report_from_buckets(&self.row_ids, &self.counter_ids, &self.buckets(), f)
    }
}

#[cfg(test)]
mod tests;
