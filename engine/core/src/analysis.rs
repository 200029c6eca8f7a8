//! Move-by-move analysis (docs/analysis.md): for each decision a search bot estimates, what
//! the move played and the best move found are worth (final points and win chance, with their
//! spread), what the move played cost, a mark on costly moves, and a summary per player.
//!
//! What is game-specific (which entries are decisions, the search, the words) is the engine's
//! ([`crate::GameEngine::analysis_moves`], [`crate::GameEngine::analyse_move`]); the marks,
//! the summary and their thresholds are here, the same for every game.

use serde::{Deserialize, Serialize};

/// Playouts per decision when the caller names no budget (`chronicle simulate --bot strong`,
/// `chronicle analyse`): docs/analysis.md gives the strength and time per decision it buys.
pub const DEFAULT_BUDGET: u32 = 144;

/// Largest budget a caller may ask for: a bound on one decision's work.
pub const MAX_BUDGET: u32 = 10_000;

/// Points lost (by the paired estimate) from which a move is marked, by mark: an inaccuracy,
/// a mistake, a blunder. A move is marked only when the loss is also larger than its spread
/// ([`SPREAD_Z`] standard errors): a loss the playouts cannot tell from luck is not marked.
pub const MARK_POINTS: [(Mark, f64); 3] = [(Mark::Blunder, 12.0), (Mark::Mistake, 6.0), (Mark::Inaccuracy, 3.0)];

/// Standard errors in a spread (a 95% normal interval).
pub const SPREAD_Z: f64 = 1.96;

/// A mark on a costly move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark for `lost` points whose spread is `spread` (`None`: no mark).
    pub fn of(lost: f64, spread: f64) -> Option<Mark> {
        if lost <= spread {
            return None;
        }
        MARK_POINTS.iter().find(|(_, from)| lost >= *from).map(|(m, _)| *m)
    }

    /// The mark in words, for people.
    pub fn words(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// What a move is worth by the search's estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Worth {
    /// The move, in words (a sentence, players by name).
    pub words: String,
    /// The mover's mean final points over the playouts after this move.
    pub points: f64,
    /// The half-width of the 95% interval of `points`.
    pub spread: f64,
    /// The mover's share of wins over those playouts (0 to 1; ties shared).
    pub win_chance: f64,
    /// Playouts behind the estimate.
    pub playouts: usize,
}

/// One decision analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// The entry's index in the log (0-based).
    pub entry: usize,
    /// The printed round it was played in.
    pub round: u16,
    /// The mover's seat (0-based; pages say seat + 1).
    pub player: usize,
    pub played: Worth,
    pub best: Worth,
    /// Whether the move played is the best move found.
    pub played_best: bool,
    /// Points the move played lost against the best (paired over the same playouts; 0 when
    /// it is the best or did better), and the half-width of that difference's 95% interval.
    pub lost: f64,
    pub lost_spread: f64,
    pub mark: Option<Mark>,
}

impl MoveAnalysis {
    /// The analysis of a decision from its two estimates and the paired difference
    /// (`best − played` and its standard error); the mark follows [`Mark::of`].
    pub fn new(entry: usize, round: u16, player: usize, played: Worth, best: Worth, diff: (f64, f64)) -> MoveAnalysis {
        let played_best = played.words == best.words;
        let (lost, lost_spread) = if played_best { (0.0, 0.0) } else { (diff.0.max(0.0), SPREAD_Z * diff.1) };
        MoveAnalysis {
            entry,
            round,
            player,
            played_best,
            mark: Mark::of(lost, lost_spread),
            lost,
            lost_spread,
            played,
            best,
        }
    }
}

/// A player's decisions in sum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    pub player: usize,
    pub name: String,
    /// Decisions analysed.
    pub moves: usize,
    /// Mean points lost per decision.
    pub lost_per_move: f64,
    /// Percent of decisions without a mark.
    pub accuracy: f64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// A log analysed: every decision, and each player's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The engine version, budget (playouts per decision) and seed the analysis was made with:
    /// the same three give the same analysis.
    pub engine_version: String,
    pub budget: u32,
    pub seed: u64,
    pub moves: Vec<MoveAnalysis>,
    pub players: Vec<PlayerSummary>,
}

impl Analysis {
    /// The analysis of `moves` for players `names` (seat order).
    pub fn new(engine_version: &str, budget: u32, seed: u64, names: &[String], moves: Vec<MoveAnalysis>) -> Analysis {
        let players = names.iter().enumerate().map(|(p, name)| summary(p, name, &moves)).collect();
        Analysis { engine_version: engine_version.to_owned(), budget, seed, moves, players }
    }
}

fn summary(player: usize, name: &str, moves: &[MoveAnalysis]) -> PlayerSummary {
    let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.player == player).collect();
    let count = |mark: Mark| mine.iter().filter(|m| m.mark == Some(mark)).count();
    let n = mine.len();
    let unmarked = mine.iter().filter(|m| m.mark.is_none()).count();
    PlayerSummary {
        player,
        name: name.to_owned(),
        moves: n,
        lost_per_move: if n == 0 { 0.0 } else { mine.iter().map(|m| m.lost).sum::<f64>() / n as f64 },
        accuracy: if n == 0 { 100.0 } else { 100.0 * unmarked as f64 / n as f64 },
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/analysis.md "Marks": a loss is marked by its size, and only when it is larger
    /// than its spread.
    #[test]
    fn marks_follow_the_documented_thresholds_and_the_spread() {
        let table = [
            (0.0, 0.0, None),
            (2.9, 0.5, None),
            (3.0, 0.5, Some(Mark::Inaccuracy)),
            (5.9, 1.0, Some(Mark::Inaccuracy)),
            (6.0, 1.0, Some(Mark::Mistake)),
            (12.0, 1.0, Some(Mark::Blunder)),
            (12.0, 13.0, None),
        ];
        for (lost, spread, mark) in table {
            assert_eq!(Mark::of(lost, spread), mark, "{lost} ± {spread}");
        }
    }

    fn worth(words: &str, points: f64) -> Worth {
        Worth { words: words.to_owned(), points, spread: 1.0, win_chance: 0.5, playouts: 10 }
    }

    /// The best move played loses nothing and gets no mark, whatever the paired difference.
    #[test]
    fn the_best_move_played_is_never_marked() {
        let m = MoveAnalysis::new(4, 2, 1, worth("a", 50.0), worth("a", 50.0), (20.0, 0.1));
        assert!(m.played_best && m.lost == 0.0 && m.mark.is_none());
    }

    /// A player's summary counts their own decisions only.
    #[test]
    fn a_summary_counts_each_players_marks_and_accuracy() {
        let moves = vec![
            MoveAnalysis::new(0, 1, 0, worth("a", 40.0), worth("b", 50.0), (10.0, 1.0)),
            MoveAnalysis::new(1, 1, 0, worth("c", 50.0), worth("c", 50.0), (0.0, 0.0)),
            MoveAnalysis::new(2, 1, 1, worth("d", 30.0), worth("e", 50.0), (20.0, 1.0)),
        ];
        let a = Analysis::new("1", 8, 3, &["Ada".to_owned(), "Bo".to_owned()], moves);
        let (ada, bo) = (&a.players[0], &a.players[1]);
        assert_eq!((ada.moves, ada.mistakes, ada.accuracy, ada.lost_per_move), (2, 1, 50.0, 5.0));
        assert_eq!((bo.moves, bo.blunders, bo.accuracy), (1, 1, 0.0));
    }
}
