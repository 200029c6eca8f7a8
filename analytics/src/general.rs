//! Seats, first-player advantage, the score distribution and action-space use.
//!
//! Definitions (over the player-games selected by the filter; shared wins count as wins):
//!
//! - **win rate by seat**: per player count and 0-based seat. `expected` is `1 / player_count`
//!   (what a seat would win if seats did not matter and there were no ties).
//! - **first-player advantage**: seat 0's win rate per player count of 2 or more (solo games
//!   are left out: the solo player is always seat 0), with `advantage = rate − 1/p`; `overall`
//!   pools those player counts: seat-0 wins over seat-0 player-games against the mean of
//!   `1/p` over the same player-games.
//! - **scores**: quantiles by linear interpolation between order statistics (R's type 7,
//!   NumPy's default: position `(n − 1)·q` of the sorted totals); the histogram has buckets
//!   `[from, from + width)` with `from` a multiple of `width`, from the lowest to the highest
//!   non-empty bucket, empty buckets included.
//! - **action-space use**: per printed round, the number of placements on each space and its
//!   share of all placements in that round (spaces sorted by count, then by id order).

use std::collections::BTreeMap;

use chronicle_caverna::action_space::ActionSpace;

use crate::buckets::Gathered;
use crate::frames::RS;
use crate::rate::Rate;
use crate::tally::Part;

#[derive(Clone, Debug, PartialEq)]
pub struct SeatWinRate {
    pub player_count: u8,
    pub seat: u8,
    pub win_rate: Rate,
    pub expected: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FirstPlayerRow {
    /// `None` in the pooled row.
    pub player_count: Option<u8>,
    pub win_rate: Rate,
    pub expected: f64,
    /// `win_rate.rate − expected`.
    pub advantage: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeatStats {
    /// By player count, then seat.
    pub by_seat: Vec<SeatWinRate>,
    /// Player counts 2–7 that occur, ascending.
    pub first_player: Vec<FirstPlayerRow>,
    /// Pooled over `first_player`'s player counts; `None` without any multiplayer game.
    pub first_player_overall: Option<FirstPlayerRow>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantiles {
    pub p10: f64,
    pub p25: f64,
    pub p50: f64,
    pub p75: f64,
    pub p90: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// Scores `from ..= from + width − 1`.
    pub from: i64,
    pub count: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScoreStats {
    pub player_games: u64,
    pub mean: Option<f64>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// `None` without player-games.
    pub quantiles: Option<Quantiles>,
    pub bucket_width: u32,
    pub histogram: Vec<Bucket>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpaceCount {
    pub space: ActionSpace,
    pub count: u64,
    /// `count` of the round's placements.
    pub share: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RoundUse {
    pub round: u8,
    pub placements: u64,
    pub spaces: Vec<SpaceCount>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SpaceUseStats {
    pub placements: u64,
    /// Rounds with at least one placement, ascending.
    pub rounds: Vec<RoundUse>,
}

pub(crate) fn seats(tallies: &Gathered<'_>, min_sample: u64) -> SeatStats {
    // (player count, seat) -> (wins, n)
    let mut rows: BTreeMap<(u8, u8), (u64, u64)> = BTreeMap::new();
    for (class, tally) in tallies {
        for (seat, s) in tally.get(Part::Seats).iter() {
            let Ok(seat) = u8::try_from(*seat) else { continue };
            let e = rows.entry((class.pc, seat)).or_default();
            e.0 += s.wins;
            e.1 += s.n;
        }
    }
    let by_seat = rows
        .iter()
        .map(|(&(player_count, seat), &(wins, n))| SeatWinRate {
            player_count,
            seat,
            win_rate: Rate::new(wins, n, min_sample),
            expected: 1.0 / f64::from(player_count.max(1)),
        })
        .collect();
    let mut first_player = Vec::new();
    let (mut wins_all, mut n_all, mut expected_sum) = (0u64, 0u64, 0.0);
    for (&(p, s), &(wins, n)) in &rows {
        if s != 0 || p < 2 {
            continue;
        }
        let expected = 1.0 / f64::from(p);
        let win_rate = Rate::new(wins, n, min_sample);
        first_player.push(FirstPlayerRow {
            player_count: Some(p),
            win_rate,
            expected,
            advantage: win_rate.rate - expected,
        });
        wins_all += wins;
        n_all += n;
        expected_sum += n as f64 * expected;
    }
    let first_player_overall = (n_all > 0).then(|| {
        let win_rate = Rate::new(wins_all, n_all, min_sample);
        let expected = expected_sum / n_all as f64;
        FirstPlayerRow { player_count: None, win_rate, expected, advantage: win_rate.rate - expected }
    });
    SeatStats { by_seat, first_player, first_player_overall }
}

/// Player-games by final score, ascending.
fn score_counts(tallies: &Gathered<'_>) -> Vec<(i64, u64)> {
    let cells = || tallies.iter().map(|(_, t)| t.get(Part::Scores));
    let lo = cells().filter_map(|c| c.first_key()).min();
    let hi = cells().filter_map(|c| c.last_key()).max();
    let (Some(lo), Some(hi)) = (lo, hi) else { return Vec::new() };
    // Scores span a few hundred points: count in an array unless they are absurdly spread.
    match usize::try_from(hi.saturating_sub(lo)).ok().filter(|&span| span < 1 << 20) {
        Some(span) => {
            let mut counts = vec![0u64; span + 1];
            for (score, s) in cells().flat_map(|c| c.iter()) {
                if let Some(c) = usize::try_from(score - lo).ok().and_then(|i| counts.get_mut(i)) {
                    *c += s.n;
                }
            }
            counts.into_iter().enumerate().filter(|(_, n)| *n > 0).map(|(i, n)| (lo + i as i64, n)).collect()
        }
        None => {
            let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
            for (score, s) in cells().flat_map(|c| c.iter()) {
                *counts.entry(*score).or_default() += s.n;
            }
            counts.into_iter().collect()
        }
    }
}

/// The value at 0-based position `at` of the sorted scores.
fn order_statistic(counts: &[(i64, u64)], at: u64) -> f64 {
    let mut seen = 0;
    for &(score, n) in counts {
        seen += n;
        if at < seen {
            return score as f64;
        }
    }
    counts.last().map_or(f64::NAN, |c| c.0 as f64)
}

/// Quantile `q` by linear interpolation between order statistics, exactly as polars computes
/// it (`QuantileMethod::Linear`): position `(n − 1)·q`.
fn quantile(counts: &[(i64, u64)], n: u64, q: f64) -> f64 {
    let float_idx = (n - 1) as f64 * q;
    let idx = float_idx as u64;
    let lower = order_statistic(counts, idx);
    if float_idx.ceil() as u64 == idx {
        return lower;
    }
    let upper = order_statistic(counts, idx + 1);
    if lower == upper {
        lower
    } else {
        (float_idx - idx as f64) * (upper - lower) + lower
    }
}

pub(crate) fn scores(tallies: &Gathered<'_>, bucket_width: u32) -> ScoreStats {
    score_stats(&score_counts(tallies), bucket_width)
}

/// Most histogram buckets drawn with the empty ones between them.
const MAX_HISTOGRAM_BUCKETS: i128 = 10_000;

/// The score distribution of player-games counted by score (ascending, distinct scores).
pub(crate) fn score_stats(counts: &[(i64, u64)], bucket_width: u32) -> ScoreStats {
    let width = i64::from(bucket_width.max(1));
    let player_games: u64 = counts.iter().map(|c| c.1).sum();
    let (Some(&(min, _)), Some(&(max, _))) = (counts.first(), counts.last()) else {
        return ScoreStats {
            player_games,
            mean: None,
            min: None,
            max: None,
            quantiles: None,
            bucket_width: width as u32,
            histogram: Vec::new(),
        };
    };
    let sum: i128 = counts.iter().map(|&(score, n)| i128::from(score) * i128::from(n)).sum();
    let q = |p: f64| quantile(counts, player_games, p);
    let quantiles = Some(Quantiles { p10: q(0.10), p25: q(0.25), p50: q(0.50), p75: q(0.75), p90: q(0.90) });
    // Buckets `[from, from + width)` with `from` a multiple of `width`.
    let mut by_from: BTreeMap<i64, u64> = BTreeMap::new();
    for &(score, n) in counts {
        *by_from.entry(score - score.rem_euclid(width)).or_default() += n;
    }
    // Every bucket from the lowest to the highest, empty ones included, unless absurd totals
    // (a tampered store) would make that millions of buckets: then the non-empty ones only.
    let span = match (by_from.first_key_value(), by_from.last_key_value()) {
        (Some((&lo, _)), Some((&hi, _))) => i128::from(hi) - i128::from(lo),
        _ => 0,
    };
    let histogram: Vec<Bucket> = if span / i128::from(width) <= MAX_HISTOGRAM_BUCKETS {
        let (lo, hi) = (by_from.first_key_value().map_or(0, |b| *b.0), by_from.last_key_value().map_or(0, |b| *b.0));
        std::iter::successors(Some(lo), |&from| from.checked_add(width).filter(|&f| f <= hi))
            .map(|from| Bucket { from, count: by_from.get(&from).copied().unwrap_or(0) })
            .collect()
    } else {
        by_from.iter().map(|(&from, &count)| Bucket { from, count }).collect()
    };
    ScoreStats {
        player_games,
        mean: Some(sum as f64 / player_games as f64),
        min: Some(min),
        max: Some(max),
        quantiles,
        bucket_width: width as u32,
        histogram,
    }
}

pub(crate) fn spaces(tallies: &Gathered<'_>) -> SpaceUseStats {
    let mut counts: BTreeMap<(u8, ActionSpace), u64> = BTreeMap::new();
    let mut cells = vec![0u64; (usize::from(crate::frames::ROUNDS) + 1) * RS as usize];
    for (_, tally) in tallies {
        for (key, s) in tally.get(Part::Spaces).iter() {
            if let Some(c) = usize::try_from(*key).ok().and_then(|k| cells.get_mut(k)) {
                *c += s.n;
            }
        }
    }
    for (key, &n) in cells.iter().enumerate().filter(|(_, n)| **n > 0) {
        let (Ok(round), Some(space)) = (u8::try_from(key as i64 / RS), space_of(key as i64 % RS)) else { continue };
        counts.insert((round, space), n);
    }
    let mut by_round: BTreeMap<u8, Vec<SpaceCount>> = BTreeMap::new();
    for ((round, space), count) in counts {
        by_round.entry(round).or_default().push(SpaceCount { space, count, share: 0.0 });
    }
    let mut placements = 0;
    let rounds = by_round
        .into_iter()
        .map(|(round, mut spaces)| {
            let total: u64 = spaces.iter().map(|s| s.count).sum();
            placements += total;
            for s in &mut spaces {
                s.share = s.count as f64 / total.max(1) as f64;
            }
            spaces.sort_by(|a, b| b.count.cmp(&a.count).then(a.space.cmp(&b.space)));
            RoundUse { round, placements: total, spaces }
        })
        .collect();
    SpaceUseStats { placements, rounds }
}

fn space_of(ix: i64) -> Option<ActionSpace> {
    ActionSpace::ALL.iter().copied().find(|s| *s as i64 == ix)
}
