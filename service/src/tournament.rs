//! A tournament's standings and verification, from its stored games. Pure functions of the
//! games, so that what the API shows is what these tests pin.
//!
//! Standings count complete games only (an incomplete or invalid game has no result). A player
//! is a name: the same name in two games is the same player. Every winner of a game gets a win
//! (ties share it). Order: most wins, then highest total score over the counted games, then
//! name (byte order); players equal on wins and total score share a rank.

use std::collections::BTreeMap;

use chronicle_game::Status;

use chronicle_store::GameHead;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub rank: usize,
    pub player: String,
    /// Complete games played.
    pub games: usize,
    pub wins: usize,
    pub total_score: i64,
}

pub fn standings(games: &[&GameHead]) -> Vec<Standing> {
    let mut by_name: BTreeMap<&str, Standing> = BTreeMap::new();
    for game in games.iter().filter(|g| g.record.status == Status::Complete) {
        for p in &game.record.players {
            let s = by_name.entry(p.name.as_str()).or_insert_with(|| Standing {
                rank: 0,
                player: p.name.clone(),
                games: 0,
                wins: 0,
                total_score: 0,
            });
            s.games += 1;
            s.wins += usize::from(p.winner);
            s.total_score += p.score.as_ref().map_or(0, |s| s.total);
        }
    }
    let mut list: Vec<Standing> = by_name.into_values().collect();
    list.sort_by(|a, b| (b.wins, b.total_score).cmp(&(a.wins, a.total_score)).then_with(|| a.player.cmp(&b.player)));
    let keys: Vec<(usize, i64)> = list.iter().map(|s| (s.wins, s.total_score)).collect();
    for s in &mut list {
        s.rank = 1 + keys.iter().filter(|&&(w, t)| (w, t) > (s.wins, s.total_score)).count();
    }
    list
}

/// A player whose recorded score differs from the computed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreMismatch {
    pub game: i64,
    pub seat: i16,
    pub name: String,
    pub claimed: i64,
    pub computed: i64,
}

/// Whether a tournament's games stand: all complete, all legal, recorded scores as computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    pub games: usize,
    pub all_complete: bool,
    pub all_legal: bool,
    pub score_mismatches: Vec<ScoreMismatch>,
    /// Complete games whose log records no final scores (nothing to compare).
    pub unclaimed: Vec<i64>,
}

pub fn verify(games: &[&GameHead]) -> Verification {
    let complete: Vec<&&GameHead> = games.iter().filter(|g| g.record.status == Status::Complete).collect();
    let score_mismatches = complete
        .iter()
        .flat_map(|g| {
            g.record.players.iter().filter_map(move |p| match (p.claimed, p.score.as_ref()) {
                (Some(claimed), Some(score)) if claimed != score.total => Some(ScoreMismatch {
                    game: g.id,
                    seat: p.seat,
                    name: p.name.clone(),
                    claimed,
                    computed: score.total,
                }),
                _ => None,
            })
        })
        .collect();
    Verification {
        games: games.len(),
        all_complete: complete.len() == games.len(),
        all_legal: games.iter().all(|g| g.record.status != Status::Invalid),
        score_mismatches,
        unclaimed: complete
            .iter()
            .filter(|g| g.record.players.iter().any(|p| p.claimed.is_none()))
            .map(|g| g.id)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chronicle_game::{GameKind, Score, ScoreRow};
    use chronicle_store::record::{Facts, GameRecord, MetaRow, PlayerRow};

    fn score(total: i64) -> Score {
        Score { rows: vec![ScoreRow { id: "gold_and_begging".into(), points: total }], total }
    }

    /// A game: (name, total, claimed) per seat; winners are the best totals.
    fn game(id: i64, status: Status, players: &[(&str, i64, Option<i64>)]) -> GameHead {
        let best = players.iter().map(|p| p.1).max().unwrap_or(0);
        let complete = status == Status::Complete;
        GameHead {
            id,
            sha256: format!("{id:064x}"),
            format: None,
            uploader: None,
            uploaded_at: String::new(),
            log_bytes: 0,
            record: GameRecord {
                game: Some(GameKind::Caverna),
                engine_version: "test".into(),
                status,
                round_reached: 12,
                entries_applied: 0,
                player_count: Some(players.len() as i16),
                variant: Some("full".into()),
                error: None,
                meta: MetaRow::default(),
                players: players
                    .iter()
                    .enumerate()
                    .map(|(seat, &(name, total, claimed))| PlayerRow {
                        seat: seat as i16,
                        name: name.into(),
                        id: None,
                        score: complete.then(|| score(total)),
                        rank: None,
                        winner: complete && total == best,
                        claimed,
                        counters: Vec::new(),
                    })
                    .collect(),
                synthetic_data: false,
                facts: Facts::None,
            },
        }
    }

    #[test]
    fn standings_order_by_wins_then_total_score_then_name_and_share_ranks() {
        let g1 = game(1, Status::Complete, &[("Ann", 50, None), ("Bo", 40, None), ("Cy", 50, None)]);
        let g2 = game(2, Status::Complete, &[("Ann", 30, None), ("Bo", 60, None)]);
        let g3 = game(3, Status::Incomplete, &[("Ann", 0, None), ("Dee", 0, None)]);
        let s = standings(&[&g1, &g2, &g3]);
        let rows: Vec<(usize, &str, usize, usize, i64)> =
            s.iter().map(|s| (s.rank, s.player.as_str(), s.games, s.wins, s.total_score)).collect();
        // Ties share the win (game 1); the incomplete game counts for no one.
        assert_eq!(rows, vec![(1, "Bo", 2, 1, 100), (2, "Ann", 2, 1, 80), (3, "Cy", 1, 1, 50)]);
        // Tied winners of game 4 both get a win: Ann 2 wins; Bo 1 win with 60 beats Cy 1 win with 50.
        let g4 = game(4, Status::Complete, &[("Ann", 20, None), ("Bo", 20, None)]);
        let s = standings(&[&g1, &g4]);
        let rows: Vec<(usize, &str, usize, i64)> =
            s.iter().map(|s| (s.rank, s.player.as_str(), s.wins, s.total_score)).collect();
        assert_eq!(rows, vec![(1, "Ann", 2, 70), (2, "Bo", 1, 60), (3, "Cy", 1, 50)]);
        let tie = game(5, Status::Complete, &[("Zed", 10, None), ("Amy", 10, None)]);
        let s = standings(&[&tie]);
        assert_eq!(s.iter().map(|s| (s.rank, s.player.as_str())).collect::<Vec<_>>(), vec![(1, "Amy"), (1, "Zed")]);
    }

    #[test]
    fn verification_reports_status_and_every_score_mismatch() {
        let ok = game(1, Status::Complete, &[("Ann", 50, Some(50)), ("Bo", 40, Some(40))]);
        let wrong = game(2, Status::Complete, &[("Ann", 50, Some(51)), ("Bo", 40, Some(40))]);
        let unclaimed = game(3, Status::Complete, &[("Ann", 50, None), ("Bo", 40, None)]);
        let v = verify(&[&ok, &wrong, &unclaimed]);
        assert!(v.all_complete && v.all_legal);
        assert_eq!(v.games, 3);
        assert_eq!(
            v.score_mismatches,
            vec![ScoreMismatch { game: 2, seat: 0, name: "Ann".into(), claimed: 51, computed: 50 }]
        );
        assert_eq!(v.unclaimed, vec![3]);
        let partial = game(4, Status::Incomplete, &[("Ann", 0, Some(50))]);
        let invalid = game(5, Status::Invalid, &[("Ann", 0, Some(50))]);
        let v = verify(&[&ok, &partial]);
        assert!(!v.all_complete && v.all_legal);
        let v = verify(&[&ok, &invalid]);
        assert!(!v.all_complete && !v.all_legal);
        assert!(v.score_mismatches.is_empty());
        let v = verify(&[]);
        assert!(v.all_complete && v.all_legal && v.games == 0);
    }
}
