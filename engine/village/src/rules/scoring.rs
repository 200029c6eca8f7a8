//! Final scoring (`docs/rules/village.md` E.3, E.4, F.7): the nine rows, the winners with their
//! tie-break, and the solo rank.

use serde::Serialize;

use crate::error::RuleResult;
use crate::game::{Game, Loc, Player};

/// The score rows of E.3, in printed order (the ids of `chronicle_game::kind::VILLAGE`).
pub const ROWS: [&str; 9] =
    ["track_travel", "track_council", "track_mass", "travel", "church", "customers", "chronicle", "council", "coins"];

/// A player's score by row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScoreBreakdown {
    pub track_travel: i64,
    pub track_council: i64,
    pub track_mass: i64,
    pub travel: i64,
    pub church: i64,
    pub customers: i64,
    pub chronicle: i64,
    pub council: i64,
    pub coins: i64,
    pub total: i64,
}

impl ScoreBreakdown {
    /// The rows in printed order with their points.
    pub fn rows(&self) -> [(&'static str, i64); 9] {
        [
            (ROWS[0], self.track_travel),
            (ROWS[1], self.track_council),
            (ROWS[2], self.track_mass),
            (ROWS[3], self.travel),
            (ROWS[4], self.church),
            (ROWS[5], self.customers),
            (ROWS[6], self.chronicle),
            (ROWS[7], self.council),
            (ROWS[8], self.coins),
        ]
    }

    /// As the shared [`chronicle_game::Score`].
    pub fn score(&self) -> chronicle_game::Score {
        chronicle_game::Score::from_rows(self.rows(), self.total)
    }
}

/// Cities visited (A.8): 1/3/6/10/14/18.
pub fn travel_points(cities: usize) -> i64 {
    [0, 1, 3, 6, 10, 14, 18][cities.min(6)]
}

/// Members in the chronicle (A.10): 0 for 1–2, 4, 7, 12 for 5 or more.
pub fn chronicle_points(members: usize) -> i64 {
    match members {
        0..=2 => 0,
        3 => 4,
        4 => 7,
        _ => 12,
    }
}

fn church_points(stage: u8) -> i64 {
    [0, 2, 3, 4, 6][usize::from(stage.min(4))]
}

fn council_points(stage: u8) -> i64 {
    [0, 0, 2, 4, 6][usize::from(stage.min(4))]
}

/// A player's score. `points` gives a served customer's printed PP (final scoring needs
/// them all; the provisional view counts unknown ones as 0).
fn score_with(p: &Player, points: impl Fn(crate::ids::Customer) -> RuleResult<u32>) -> RuleResult<ScoreBreakdown> {
    let mut s = ScoreBreakdown {
        track_travel: i64::from(p.track.travel),
        track_council: i64::from(p.track.council),
        track_mass: i64::from(p.track.mass),
        travel: travel_points(p.discs.len()),
        coins: i64::from(p.coins),
        ..ScoreBreakdown::default()
    };
    for m in &p.members {
        match m.loc {
            Loc::Church(st) => s.church += church_points(st),
            Loc::Council(st) => s.council += council_points(st),
            _ => {}
        }
    }
    s.chronicle = chronicle_points(p.members.iter().filter(|m| matches!(m.loc, Loc::Chronicle(_))).count());
    for &c in &p.customers {
        s.customers += i64::from(points(c)?);
    }
    s.total = s.rows().iter().map(|r| r.1).sum();
    Ok(s)
}

/// The final score of a player (needs every served customer's points, M.9).
pub fn score(game: &Game, p: usize) -> RuleResult<ScoreBreakdown> {
    score_with(&game.players[p], |c| game.components().customer(c).map(|d| d.points))
}

/// The score if the game were scored now; customers without data count 0.
pub fn provisional(game: &Game, p: usize) -> ScoreBreakdown {
    score_with(&game.players[p], |c| Ok(game.components().customers.get(&c).map_or(0, |d| d.points)))
        .unwrap_or_default()
}

/// What decided the winners (E.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// One highest total, or a single player.
    Total,
    Grain,
    LivingMembers,
    /// Still tied: the win is shared (H.20).
    Shared,
}

/// Winners by total, then grain, then living members (E.4, H.20).
pub fn winners(game: &Game, totals: &[i64]) -> (Vec<usize>, TieBreak) {
    let best = totals.iter().copied().max().unwrap_or(0);
    let mut tied: Vec<usize> = (0..totals.len()).filter(|&i| totals[i] == best).collect();
    if tied.len() <= 1 {
        return (tied, TieBreak::Total);
    }
    let keys: [fn(&Player) -> usize; 2] = [|p| p.grain as usize, Player::living];
    for (key, decided) in keys.iter().zip([TieBreak::Grain, TieBreak::LivingMembers]) {
        let top = tied.iter().map(|&i| key(&game.players[i])).max().unwrap_or(0);
        tied.retain(|&i| key(&game.players[i]) == top);
        if tied.len() == 1 {
            return (tied, decided);
        }
    }
    (tied, TieBreak::Shared)
}

/// The solo rank of a total (F.7).
pub fn solo_rank(total: i64) -> &'static str {
    match total {
        i64::MIN..=39 => "apprentice",
        40..=49 => "professional",
        50..=59 => "master",
        60..=69 => "grand_master",
        70..=79 => "genius",
        _ => "legend",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/rules/village.md A.8, A.10: the two final-scoring tables.
    #[test]
    fn scoring_tables() {
        let travel: Vec<i64> = (0..=7).map(travel_points).collect();
        assert_eq!(travel, [0, 1, 3, 6, 10, 14, 18, 18]);
        let chronicle: Vec<i64> = (0..=6).map(chronicle_points).collect();
        assert_eq!(chronicle, [0, 0, 0, 4, 7, 12, 12]);
    }

    /// docs/rules/village.md F.7.
    #[test]
    fn solo_ranks() {
        for (t, r) in [
            (0, "apprentice"),
            (39, "apprentice"),
            (40, "professional"),
            (59, "master"),
            (60, "grand_master"),
            (79, "genius"),
            (80, "legend"),
        ] {
            assert_eq!(solo_rank(t), r);
        }
    }
}
