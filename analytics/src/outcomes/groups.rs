//! Accumulators for the outcome statistics: a group's wins and margins, value buckets of a
//! counter, and the main source of a player's points.

use super::mean::{Mean, MeanAcc};
use crate::rate::Rate;

/// Most groups a counter is split into: the smallest values one by one, the rest together.
pub const MAX_GROUPS: usize = 8;

/// Wins and margins of the player-games of one group.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GroupAcc {
    wins: u64,
    n: u64,
    margin: MeanAcc,
}

impl GroupAcc {
    pub fn add(&mut self, winner: bool, margin: f64) {
        self.n += 1;
        self.wins += u64::from(winner);
        self.margin.add(margin);
    }

    pub fn win_rate(&self, min_sample: u64) -> Rate {
        Rate::new(self.wins, self.n, min_sample)
    }

    pub fn margin(&self, min_sample: u64) -> Mean {
        self.margin.finish(min_sample)
    }
}

/// The player-games whose counter value is in `low ..= high` (`high` `None`: no upper end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueGroup {
    pub low: i64,
    pub high: Option<i64>,
    pub win_rate: Rate,
    /// Own total minus the mean of the opponents' totals.
    pub margin: Mean,
}

/// Groups of observed `(value, winner, margin)` triples: each of the smallest
/// `MAX_GROUPS − 1` distinct values alone, every larger value in one open-ended top group (or
/// alone too when there are at most `MAX_GROUPS` distinct values). Groups are observed values,
/// so none is empty; ascending by value.
pub(crate) fn value_groups(mut seen: Vec<(i64, bool, f64)>, min_sample: u64) -> Vec<ValueGroup> {
    seen.sort_by_key(|s| s.0);
    let mut distinct: Vec<i64> = seen.iter().map(|s| s.0).collect();
    distinct.dedup();
    let top = (distinct.len() > MAX_GROUPS).then(|| distinct[MAX_GROUPS - 1]);
    let mut groups: Vec<(i64, Option<i64>, GroupAcc)> = Vec::new();
    for (value, winner, margin) in seen {
        let (low, high) = match top {
            Some(t) if value >= t => (t, None),
            _ => (value, Some(value)),
        };
        if groups.last().is_none_or(|g| g.0 != low) {
            groups.push((low, high, GroupAcc::default()));
        }
        if let Some(g) = groups.last_mut() {
            g.2.add(winner, margin);
        }
    }
    groups
        .into_iter()
        .map(|(low, high, acc)| ValueGroup {
            low,
            high,
            win_rate: acc.win_rate(min_sample),
            margin: acc.margin(min_sample),
        })
        .collect()
}

/// The position of the row with the most points (the first in printed order on a tie); `None`
/// without rows.
pub fn main_source(rows: &[Option<i64>]) -> Option<usize> {
    let mut best: Option<(usize, i64)> = None;
    for (i, points) in rows.iter().enumerate() {
        if let Some(p) = *points {
            if best.is_none_or(|(_, b)| p > b) {
                best = Some((i, p));
            }
        }
    }
    best.map(|b| b.0)
}

/// Own total minus the mean of the other players' totals (`None` alone).
pub(crate) fn margin(totals: &[i64], seat: usize) -> Option<f64> {
    let others = totals.len().checked_sub(1).filter(|&n| n > 0)?;
    let sum: i128 = totals.iter().enumerate().filter(|(i, _)| *i != seat).map(|(_, t)| i128::from(*t)).sum();
    let own = totals.get(seat)?;
    Some(*own as f64 - sum as f64 / others as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_alone_then_an_open_top_group() {
        let seen: Vec<(i64, bool, f64)> = (0..10).map(|v| (v, v >= 9, 0.0)).collect();
        let g = value_groups(seen, 1);
        assert_eq!(g.len(), MAX_GROUPS);
        assert_eq!((g[0].low, g[0].high), (0, Some(0)));
        assert_eq!((g[7].low, g[7].high, g[7].win_rate.n, g[7].win_rate.successes), (7, None, 3, 1));
        let few = value_groups(vec![(3, true, 1.0), (1, false, -1.0), (3, false, 0.0)], 1);
        assert_eq!(
            few.iter().map(|g| (g.low, g.high, g.win_rate.n)).collect::<Vec<_>>(),
            [(1, Some(1), 1), (3, Some(3), 2)]
        );
    }

    #[test]
    fn main_source_and_margin() {
        assert_eq!(main_source(&[Some(3), Some(7), None, Some(7)]), Some(1));
        assert_eq!(main_source(&[None]), None);
        assert_eq!(margin(&[10, 4, 6], 0), Some(5.0));
        assert_eq!(margin(&[10], 0), None);
        assert_eq!(margin(&[10, 4], 5), None);
    }
}
