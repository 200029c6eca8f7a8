//! A counter's value groups and the main source of a player's points (the groups are added up
//! in [`super::tallied`]).

use super::mean::Mean;
use crate::rate::Rate;

/// Most groups a counter is split into: the smallest values one by one, the rest together.
pub const MAX_GROUPS: usize = 8;

/// The player-games whose counter value is in `low ..= high` (`high` `None`: no upper end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueGroup {
    pub low: i64,
    pub high: Option<i64>,
    pub win_rate: Rate,
    /// Own total minus the mean of the opponents' totals.
    pub margin: Mean,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_source_is_the_first_row_with_the_most_points() {
        assert_eq!(main_source(&[Some(3), Some(7), None, Some(7)]), Some(1));
        assert_eq!(main_source(&[None]), None);
    }
}
