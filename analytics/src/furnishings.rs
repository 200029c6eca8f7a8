//! Per furnishing tile: how often it is built, and how its builders fare.
//!
//! Definitions (for tile `t`, over the player-games selected by the filter):
//!
//! - **eligible player-games** (`player_games`): those whose game's furnishing set contains
//!   `t` (every game for an introductory tile, full-set games only for the others).
//! - **built**: eligible player-games in which the player built `t` at least once. A tile
//!   built several times (only `dwelling` can be) counts once, at its *first* build.
//! - `win_rate_built` / `win_rate_not_built`: share of winners among built / eligible but not
//!   built player-games (raw, all player counts pooled). Shared wins count as wins.
//! - `mean_score_built` / `mean_score_not_built`: mean final score of the same two groups.
//! - `win_rate_difference` and `mean_score_difference` compare **within player count, then
//!   aggregate**: for each player count `p` where both groups are non-empty,
//!   `d_p = value(built, p) − value(not built, p)`; the result is the mean of the `d_p`
//!   weighted by the number of built player-games at `p`. This removes the effect of player
//!   count (a 2-player game is won half the time, a 5-player game a fifth) from the
//!   comparison. `None` when no player count has both groups.
//! - `win_rate_difference_ci`: the 95% interval of `win_rate_difference`, by the method of
//!   variance estimates recovery (MOVER, Zou & Donner 2008) for a weighted sum of differences:
//!   with `w_p` the weights, `(l_p, u_p)` each player count's Newcombe interval of `d_p`,
//!   `d ± sqrt(Σ (w_p·(d_p − l_p))²)` below and `sqrt(Σ (w_p·(u_p − d_p))²)` above (exactly
//!   Newcombe's interval when one player count has both groups).
//! - `mean_score_difference_ci`: the 95% interval of `mean_score_difference`, from Welch's
//!   variance of each player count's difference of means (`s_b²/n_b + s_n²/n_n`, sample
//!   variances of the scores), combined as the variance of the weighted mean
//!   `Σ (w_p/W)²·var_p`, with the normal quantile 1.96. `None` when a player count that enters
//!   the difference has fewer than two player-games in either group (no variance).
//! - `mean_round_built`: mean printed round of the (first) build.
//! - `by_round`: for each round in which `t` was built, the win rate of the player-games that
//!   built it that round.

use std::collections::BTreeMap;

use chronicle_caverna::furnishing::Furnishing;

use crate::buckets::Gathered;
use crate::columns::mean;
use crate::frames::TILE_ROUND;
use crate::rate::Rate;
use crate::tally::{Part, Sums};

/// The tally parts the statistics are computed from.
pub(crate) const PARTS: &[Part] = &[Part::Seats, Part::Tiles];

/// The statistics of every tile, in catalogue order.
#[derive(Clone, Debug, PartialEq)]
pub struct FurnishingStats {
    /// Player-games selected by the filter.
    pub player_games: u64,
    pub tiles: Vec<TileStats>,
}

impl FurnishingStats {
    pub fn tile(&self, tile: Furnishing) -> Option<&TileStats> {
        self.tiles.iter().find(|t| t.tile == tile)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TileStats {
    pub tile: Furnishing,
    /// Eligible player-games (the tile was in the game's set).
    pub player_games: u64,
    /// Eligible player-games in which the tile was built.
    pub built: u64,
    /// `built` of `player_games`.
    pub build_rate: Rate,
    pub win_rate_built: Rate,
    pub win_rate_not_built: Rate,
    /// Within-player-count difference of win rates, weighted by builders (see the module).
    pub win_rate_difference: Option<f64>,
    /// Its 95% interval: each player count's Newcombe interval, combined by MOVER (see the
    /// module).
    pub win_rate_difference_ci: Option<(f64, f64)>,
    pub mean_score_built: Option<f64>,
    pub mean_score_not_built: Option<f64>,
    /// Within-player-count difference of mean scores, weighted by builders.
    pub mean_score_difference: Option<f64>,
    /// Its 95% interval (Welch's variances, see the module).
    pub mean_score_difference_ci: Option<(f64, f64)>,
    pub mean_round_built: Option<f64>,
    /// Rounds in ascending order; only rounds in which the tile was built.
    pub by_round: Vec<RoundWinRate>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RoundWinRate {
    pub round: u8,
    pub win_rate: Rate,
}

/// Player counts 1–7, as indexes.
const PCS: usize = 8;

/// Tile keys `tile·16 + round`.
const TILE_CELLS: usize = 48 * TILE_ROUND as usize;

pub(crate) fn compute(tallies: &Gathered<'_>, min_sample: u64) -> FurnishingStats {
    // Player-games by (player count, full set).
    let mut groups: BTreeMap<(u8, bool), Sums> = BTreeMap::new();
    // Builders by player count and tile key.
    let mut cells = vec![Sums::default(); PCS * TILE_CELLS];
    for (class, tally) in tallies {
        let g = groups.entry((class.pc, class.full)).or_default();
        for (_, s) in tally.get(Part::Seats).iter() {
            g.add(s);
        }
        let pc = usize::from(class.pc);
        for (key, s) in tally.get(Part::Tiles).iter() {
            if let Some(c) = usize::try_from(*key).ok().and_then(|k| cells.get_mut(pc * TILE_CELLS + k)) {
                c.add(s);
            }
        }
    }
    groups.retain(|_, s| s.n > 0);
    let player_games = groups.values().map(|s| s.n).sum();
    // tile -> player count -> (built sums, sum of rounds)
    let mut built: BTreeMap<i64, BTreeMap<u8, (Sums, i64)>> = BTreeMap::new();
    // tile -> round -> (built, wins)
    let mut rounds: BTreeMap<i64, BTreeMap<u8, (u64, u64)>> = BTreeMap::new();
    for (i, s) in cells.iter().enumerate().filter(|(_, s)| s.n > 0) {
        let (pc, key) = ((i / TILE_CELLS) as u8, (i % TILE_CELLS) as i64);
        let (tile, round) = (key / TILE_ROUND, (key % TILE_ROUND) as u8);
        let e = built.entry(tile).or_default().entry(pc).or_default();
        e.0.add(s);
        e.1 += i64::from(round) * s.n as i64;
        let r = rounds.entry(tile).or_default().entry(round).or_default();
        r.0 += s.n;
        r.1 += s.wins;
    }

    let empty = BTreeMap::new();
    let tiles = Furnishing::all()
        .map(|tile| {
            let key = tile as i64;
            let built = built.get(&key).unwrap_or(&empty);
            // Eligible sums per player count.
            let mut eligible: BTreeMap<u8, Sums> = BTreeMap::new();
            for (&(pc, is_full), s) in &groups {
                if is_full || tile.card().intro {
                    eligible.entry(pc).or_default().add(s);
                }
            }
            let mut all_b = Sums::default();
            let mut all_e = Sums::default();
            let mut round_sum = 0i64;
            let (mut win_d, mut score_d, mut weight) = (0.0, 0.0, 0u64);
            // Per player count: (weight, difference, Newcombe's low and high).
            let mut strata: Vec<(f64, f64, f64, f64)> = Vec::new();
            // Per player count: (weight, variance of the difference of mean scores).
            let mut score_var: Vec<(f64, Option<f64>)> = Vec::new();
            for (pc, e) in &eligible {
                all_e.add(e);
                let Some((b, r)) = built.get(pc) else { continue };
                all_b.add(b);
                round_sum += r;
                let not_n = e.n.saturating_sub(b.n);
                if b.n > 0 && not_n > 0 {
                    let not_wins = e.wins.saturating_sub(b.wins) as f64;
                    let not_score = (e.score - b.score) as f64;
                    win_d += b.n as f64 * (b.wins as f64 / b.n as f64 - not_wins / not_n as f64);
                    if let Some(d) = crate::rate::newcombe(b.wins, b.n, e.wins.saturating_sub(b.wins), not_n) {
                        strata.push((b.n as f64, d.difference, d.ci_low, d.ci_high));
                    }
                    score_d += b.n as f64 * (b.score as f64 / b.n as f64 - not_score / not_n as f64);
                    let not = Sums { n: not_n, wins: 0, score: e.score - b.score, score_sq: e.score_sq - b.score_sq };
                    let var = sample_variance(b)
                        .zip(sample_variance(&not))
                        .map(|(vb, vn)| vb / b.n as f64 + vn / not_n as f64);
                    score_var.push((b.n as f64, var));
                    weight += b.n;
                }
            }
            let not_n = all_e.n.saturating_sub(all_b.n);
            let by_round = rounds
                .get(&key)
                .map(|m| {
                    m.iter()
                        .map(|(&round, &(n, wins))| RoundWinRate { round, win_rate: Rate::new(wins, n, min_sample) })
                        .collect()
                })
                .unwrap_or_default();
            TileStats {
                tile,
                player_games: all_e.n,
                built: all_b.n,
                build_rate: Rate::new(all_b.n, all_e.n, min_sample),
                win_rate_built: Rate::new(all_b.wins, all_b.n, min_sample),
                win_rate_not_built: Rate::new(all_e.wins.saturating_sub(all_b.wins), not_n, min_sample),
                win_rate_difference: mean(win_d, weight),
                win_rate_difference_ci: mover(&strata),
                mean_score_built: mean(all_b.score as f64, all_b.n),
                mean_score_not_built: mean((all_e.score - all_b.score) as f64, not_n),
                mean_score_difference: mean(score_d, weight),
                mean_score_difference_ci: mean(score_d, weight).and_then(|d| weighted_interval(d, &score_var)),
                mean_round_built: mean(round_sum as f64, all_b.n),
                by_round,
            }
        })
        .collect();
    FurnishingStats { player_games, tiles }
}
/// The sample variance of the scores summed in `s` (`None` under two player-games).
fn sample_variance(s: &Sums) -> Option<f64> {
    (s.n >= 2).then(|| {
        let n = s.n as f64;
        let mean = s.score as f64 / n;
        ((s.score_sq as f64 - n * mean * mean) / (n - 1.0)).max(0.0)
    })
}

/// The normal 95% interval of `d`, the weighted mean of independent differences with these
/// weights and variances (see the module docs).
fn weighted_interval(d: f64, strata: &[(f64, Option<f64>)]) -> Option<(f64, f64)> {
    let total: f64 = strata.iter().map(|s| s.0).sum();
    if total <= 0.0 {
        return None;
    }
    let var = strata.iter().try_fold(0.0, |acc, &(w, v)| Some(acc + (w / total).powi(2) * v?))?;
    let half = 1.96 * var.sqrt();
    Some((d - half, d + half))
}

/// The MOVER interval of the weighted mean of differences (see the module docs).
fn mover(strata: &[(f64, f64, f64, f64)]) -> Option<(f64, f64)> {
    let total: f64 = strata.iter().map(|s| s.0).sum();
    if total <= 0.0 {
        return None;
    }
    let d: f64 = strata.iter().map(|&(w, d, _, _)| w / total * d).sum();
    let below: f64 = strata.iter().map(|&(w, d, l, _)| (w / total * (d - l)).powi(2)).sum();
    let above: f64 = strata.iter().map(|&(w, d, _, u)| (w / total * (u - d)).powi(2)).sum();
    Some(((d - below.sqrt()).max(-1.0), (d + above.sqrt()).min(1.0)))
}
