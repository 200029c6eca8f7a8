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

use chronicle_engine::action_space::ActionSpace;
use polars::prelude::*;

use crate::columns::{count, f64s, i64s, small};
use crate::frames::{space_column, Selection, Tables, ROUNDS, RS};
use crate::rate::Rate;

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

pub(crate) fn seats(t: &Tables, sel: &Selection, min_sample: u64) -> PolarsResult<SeatStats> {
    let pg = sel.player_games(t)?;
    let agg = pg
        .lazy()
        .group_by([(col("pc") * lit(8i32) + col("seat")).alias("key")])
        .agg([len().alias("n"), col("winner").sum().alias("wins")])
        .collect()?;
    let key = i64s(&agg, "key")?;
    let n = i64s(&agg, "n")?;
    let wins = i64s(&agg, "wins")?;
    let mut rows: BTreeMap<(u8, u8), (u64, u64)> = BTreeMap::new();
    for i in 0..key.len() {
        let Some(k) = key[i] else { continue };
        let (Some(p), Some(s)) = (small(Some(k / 8)), small(Some(k % 8))) else { continue };
        rows.insert((p, s), (count(wins[i]), count(n[i])));
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
        first_player.push(FirstPlayerRow { player_count: Some(p), win_rate, expected, advantage: win_rate.rate - expected });
        wins_all += wins;
        n_all += n;
        expected_sum += n as f64 * expected;
    }
    let first_player_overall = (n_all > 0).then(|| {
        let win_rate = Rate::new(wins_all, n_all, min_sample);
        let expected = expected_sum / n_all as f64;
        FirstPlayerRow { player_count: None, win_rate, expected, advantage: win_rate.rate - expected }
    });
    Ok(SeatStats { by_seat, first_player, first_player_overall })
}

pub(crate) fn scores(t: &Tables, sel: &Selection, bucket_width: u32) -> PolarsResult<ScoreStats> {
    let width = i64::from(bucket_width.max(1));
    let pg = sel.player_games(t)?;
    let player_games = pg.height() as u64;
    if player_games == 0 {
        return Ok(ScoreStats { player_games, mean: None, min: None, max: None, quantiles: None, bucket_width: width as u32, histogram: Vec::new() });
    }
    let total = || col("total").cast(DataType::Float64);
    let q = |p: f64, name: &str| total().quantile(lit(p), QuantileMethod::Linear).alias(name);
    let summary = pg
        .clone()
        .lazy()
        .select([
            total().mean().alias("mean"),
            col("total").min().alias("min"),
            col("total").max().alias("max"),
            q(0.10, "p10"),
            q(0.25, "p25"),
            q(0.50, "p50"),
            q(0.75, "p75"),
            q(0.90, "p90"),
        ])
        .collect()?;
    let one = |name: &str| -> PolarsResult<Option<f64>> { Ok(f64s(&summary, name)?.first().copied().flatten()) };
    let quantiles = match (one("p10")?, one("p25")?, one("p50")?, one("p75")?, one("p90")?) {
        (Some(p10), Some(p25), Some(p50), Some(p75), Some(p90)) => Some(Quantiles { p10, p25, p50, p75, p90 }),
        _ => None,
    };
    let hist = pg
        .lazy()
        // `from = total − (total mod width)` with a non-negative remainder whatever the sign
        // convention of `%` (floor division itself needs another polars feature).
        .group_by([(col("total") - ((col("total") % lit(width)) + lit(width)) % lit(width)).alias("from")])
        .agg([len().alias("n")])
        .collect()?;
    let counts: BTreeMap<i64, u64> = i64s(&hist, "from")?
        .into_iter()
        .zip(i64s(&hist, "n")?)
        .filter_map(|(from, n)| Some((from?, count(n))))
        .collect();
    let mut histogram = Vec::new();
    if let (Some((&lo, _)), Some((&hi, _))) = (counts.first_key_value(), counts.last_key_value()) {
        let mut from = lo;
        while from <= hi {
            histogram.push(Bucket { from, count: counts.get(&from).copied().unwrap_or(0) });
            from += width;
        }
    }
    Ok(ScoreStats {
        player_games,
        mean: one("mean")?,
        min: i64s(&summary, "min")?.first().copied().flatten(),
        max: i64s(&summary, "max")?.first().copied().flatten(),
        quantiles,
        bucket_width: width as u32,
        histogram,
    })
}

pub(crate) fn spaces(t: &Tables, sel: &Selection) -> PolarsResult<SpaceUseStats> {
    // First uses: one bit column per (round, space), summed over the selected games.
    let mut keys = Vec::with_capacity(usize::from(ROUNDS) * ActionSpace::ALL.len());
    for round in 1..=ROUNDS {
        for (i, &space) in ActionSpace::ALL.iter().enumerate() {
            keys.push((round, space, space_column(round, i)));
        }
    }
    let names: Vec<String> = keys.iter().map(|k| k.2.clone()).collect();
    let totals = sel.count_games(t, &names)?;
    let mut counts: BTreeMap<(u8, ActionSpace), u64> = BTreeMap::new();
    for (round, space, name) in keys {
        let n = count(i64s(&totals, &name)?.first().copied().flatten());
        if n > 0 {
            counts.insert((round, space), n);
        }
    }
    // Repeated uses, if any.
    let extra = sel.extra(t)?;
    if extra.height() > 0 {
        let agg = extra.lazy().group_by([col("rs")]).agg([len().alias("n")]).collect()?;
        for (rs, n) in i64s(&agg, "rs")?.into_iter().zip(i64s(&agg, "n")?) {
            let Some(rs) = rs else { continue };
            let (Some(round), Some(space)) = (small(Some(rs / i64::from(RS))), space_of(rs % i64::from(RS))) else { continue };
            *counts.entry((round, space)).or_default() += count(n);
        }
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
    Ok(SpaceUseStats { placements, rounds })
}

fn space_of(ix: i64) -> Option<ActionSpace> {
    ActionSpace::ALL.iter().copied().find(|s| *s as i64 == ix)
}
