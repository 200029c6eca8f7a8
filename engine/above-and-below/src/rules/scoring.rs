//! Final scoring (`docs/rules/above-and-below.md` F.10–F.12, H.2, H.17, H.35): the seven score rows of
//! `chronicle_game::kind::ABOVE_AND_BELOW` in order, the reputation rank bonus with shared
//! places rounded up, and the winners after the three tie-breaks.

use serde::Serialize;

use crate::game::{Game, Player};
use crate::ids::Item;
use crate::notation::{CardKind, Counter, Effect};

/// The score row ids, in the order of F.10 (and of the game's `GameSpec`).
pub const ROWS: [&str; 7] = [
    "storage",
    "houses_outposts",
    "reputation_rank",
    "reputation_track",
    "card_vp_fixed",
    "card_vp_variable",
    "card_vp_custom",
];

/// One player's score by rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreBreakdown {
    pub storage: i64,
    pub houses_outposts: i64,
    pub reputation_rank: i64,
    pub reputation_track: i64,
    pub card_vp_fixed: i64,
    pub card_vp_variable: i64,
    pub card_vp_custom: i64,
    pub total: i64,
}

impl ScoreBreakdown {
    /// The rows as `(id, points)`, in F.10 order.
    pub fn rows(&self) -> [(&'static str, i64); 7] {
        [
            (ROWS[0], self.storage),
            (ROWS[1], self.houses_outposts),
            (ROWS[2], self.reputation_rank),
            (ROWS[3], self.reputation_track),
            (ROWS[4], self.card_vp_fixed),
            (ROWS[5], self.card_vp_variable),
            (ROWS[6], self.card_vp_custom),
        ]
    }

    pub fn score(&self) -> chronicle_game::Score {
        chronicle_game::Score::from_rows(self.rows(), self.total)
    }
}

/// F.11: the rank bonus per player from the reputation positions.
pub fn rank_bonus(positions: &[i32]) -> Vec<i64> {
    let table: &[i64] = if positions.len() == 2 { &[3, 0] } else { &[5, 3, 2, 0] };
    positions
        .iter()
        .map(|pos| {
            let better = positions.iter().filter(|o| *o > pos).count();
            let tied = positions.iter().filter(|o| *o == pos).count();
            let sum: i64 = (better..better + tied).map(|place| table.get(place).copied().unwrap_or(0)).sum();
            // Round up (F.11): tied is at least 1 (the player itself).
            let tied = tied as i64;
            (sum + tied - 1).div_euclid(tied)
        })
        .collect()
}

/// B.3 `vp_per`: the count of one counter for a player (H.17 for `house`).
fn count(p: &Player, c: Counter) -> i64 {
    let n = match c {
        Counter::Villager => p.villagers.len() as u64,
        Counter::House => p.houses.iter().filter(|h| h.kind != CardKind::Starting).count() as u64,
        Counter::Outpost => p.caves.iter().filter(|c| c.outpost.is_some()).count() as u64,
        Counter::EmptyCave => p.caves.iter().filter(|c| c.outpost.is_none()).count() as u64,
        Counter::Item(i) => p.owned(i),
    };
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Every player's score, in seat order (provisional before the game ends).
pub fn score(game: &Game) -> Vec<ScoreBreakdown> {
    let positions: Vec<i32> = game.players.iter().map(|p| p.reputation).collect();
    let ranks = rank_bonus(&positions);
    let board = &game.setup.board;
    game.players
        .iter()
        .zip(ranks)
        .map(|(p, reputation_rank)| {
            let storage: i64 = p
                .storage
                .iter()
                .zip(&board.spaces)
                .map(|((_, n), (vp, _))| i64::try_from(*n).unwrap_or(0).saturating_mul(i64::from(*vp)))
                .sum();
            let mut fixed = 0i64;
            let mut variable = 0i64;
            for card in p.cards() {
                for e in card.effects.iter() {
                    match e {
                        Effect::Vp { n } => fixed += i64::from(*n),
                        Effect::VpPer { per, n } => {
                            variable += per.iter().map(|c| count(p, *c)).sum::<i64>().saturating_mul(i64::from(*n))
                        }
                        _ => {}
                    }
                }
            }
            let mut s = ScoreBreakdown {
                storage,
                houses_outposts: p.houses_and_outposts() as i64,
                reputation_rank,
                reputation_track: i64::from(board.track_vp(p.reputation)),
                card_vp_fixed: fixed,
                card_vp_variable: variable,
                card_vp_custom: p.declared.values().map(|v| i64::from(*v)).sum(),
                total: 0,
            };
            s.total = s.rows().iter().map(|(_, v)| v).sum();
            s
        })
        .collect()
}

/// F.12, H.35: the winners: highest total, then most coins, villagers, houses and outposts.
pub fn winners(game: &Game, scores: &[ScoreBreakdown]) -> Vec<usize> {
    let key = |i: usize| {
        let p = &game.players[i];
        (scores[i].total, p.coins, p.villagers.len(), p.houses_and_outposts())
    };
    let best = (0..scores.len()).map(key).max();
    (0..scores.len()).filter(|i| Some(key(*i)) == best).collect()
}

/// Owned potions and cider count for `vp_per` (kept for the tests).
pub fn owned(p: &Player, i: Item) -> u64 {
    p.owned(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// F.11: the IT example and the spec's worked ties.
    #[test]
    fn rank_bonus_shares_tied_places_rounding_up() {
        assert_eq!(rank_bonus(&[3, 3, 1, 0]), vec![4, 4, 2, 0]);
        assert_eq!(rank_bonus(&[1, 1]), vec![2, 2]);
        assert_eq!(rank_bonus(&[2, 1]), vec![3, 0]);
        assert_eq!(rank_bonus(&[2, 2, 2]), vec![4, 4, 4]);
        assert_eq!(rank_bonus(&[5, 1, 1, 1]), vec![5, 2, 2, 2]);
        assert_eq!(rank_bonus(&[0, 1, 2]), vec![2, 3, 5]);
    }
}
