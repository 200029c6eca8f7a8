//! A stored game's analysis by its game's search bot (docs/analysis.md): `Game.analysis` reads
//! it, `analyseGame` asks for it (a queued background job; docs/api.md "Analysis").

use async_graphql::{Enum, SimpleObject};
use chronicle_game::analysis::{Mark, MoveAnalysis, PlayerSummary, Worth};
use chronicle_service::analyses::GameAnalysis;
use chronicle_store::AnalysisState;

/// Where an analysis stands.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    /// Waiting for a worker.
    Queued,
    /// Being analysed: `decisionsDone` of `decisions`.
    Running,
    Done,
    /// It could not be finished (the server's log says why).
    Failed,
}

/// A mark on a costly move (docs/analysis.md "Marks").
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveMark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// What a move is worth by the search's estimate.
#[derive(SimpleObject, Clone, Debug)]
pub struct MoveWorth {
    /// The move in words.
    pub words: String,
    /// The mover's mean final points over the playouts after this move.
    pub points: f64,
    /// Half-width of the 95% interval of `points`.
    pub spread: f64,
    /// The mover's share of wins over those playouts (0 to 1).
    pub win_chance: f64,
    pub playouts: i32,
}

/// One decision judged.
#[derive(SimpleObject, Clone, Debug)]
pub struct AnalysedMove {
    /// The entry's index in the log (0-based).
    pub entry: i32,
    pub round: i32,
    /// The mover's seat (0-based).
    pub seat: i32,
    pub played: MoveWorth,
    pub best: MoveWorth,
    /// Whether the move played is the best found.
    pub played_best: bool,
    /// Points the move played lost against the best (paired estimate), and the half-width of
    /// its 95% interval.
    pub lost: f64,
    pub lost_spread: f64,
    pub mark: Option<MoveMark>,
}

/// A player's decisions in sum.
#[derive(SimpleObject, Clone, Debug)]
pub struct AnalysisSummary {
    pub seat: i32,
    pub name: String,
    pub decisions: i32,
    pub lost_per_decision: f64,
    /// Percent of the player's decisions without a mark.
    pub accuracy: f64,
    pub inaccuracies: i32,
    pub mistakes: i32,
    pub blunders: i32,
}

/// A stored game's analysis: the engine version, budget and seed it was made with (the same
/// three give the same analysis), its progress, and once done every decision and each
/// player's summary.
#[derive(SimpleObject, Clone, Debug)]
pub struct GameAnalysisInfo {
    pub status: AnalysisStatus,
    pub engine_version: String,
    /// Playouts per decision.
    pub budget: i32,
    pub seed: String,
    pub decisions_done: i32,
    /// Decisions to judge (0 until the worker has read the log).
    pub decisions: i32,
    pub moves: Vec<AnalysedMove>,
    pub players: Vec<AnalysisSummary>,
}

fn int(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

fn worth(w: &Worth) -> MoveWorth {
    MoveWorth {
        words: w.words.clone(),
        points: w.points,
        spread: w.spread,
        win_chance: w.win_chance,
        playouts: int(w.playouts),
    }
}

fn mark(m: Mark) -> MoveMark {
    match m {
        Mark::Inaccuracy => MoveMark::Inaccuracy,
        Mark::Mistake => MoveMark::Mistake,
        Mark::Blunder => MoveMark::Blunder,
    }
}

fn analysed(m: &MoveAnalysis) -> AnalysedMove {
    AnalysedMove {
        entry: int(m.entry),
        round: i32::from(m.round),
        seat: int(m.player),
        played: worth(&m.played),
        best: worth(&m.best),
        played_best: m.played_best,
        lost: m.lost,
        lost_spread: m.lost_spread,
        mark: m.mark.map(mark),
    }
}

fn summary(s: &PlayerSummary) -> AnalysisSummary {
    AnalysisSummary {
        seat: int(s.player),
        name: s.name.clone(),
        decisions: int(s.moves),
        lost_per_decision: s.lost_per_move,
        accuracy: s.accuracy,
        inaccuracies: int(s.inaccuracies),
        mistakes: int(s.mistakes),
        blunders: int(s.blunders),
    }
}

impl From<&GameAnalysis> for GameAnalysisInfo {
    fn from(a: &GameAnalysis) -> GameAnalysisInfo {
        GameAnalysisInfo {
            status: match a.state {
                AnalysisState::Queued => AnalysisStatus::Queued,
                AnalysisState::Running => AnalysisStatus::Running,
                AnalysisState::Done => AnalysisStatus::Done,
                AnalysisState::Failed => AnalysisStatus::Failed,
            },
            engine_version: a.engine_version.clone(),
            budget: int(a.budget),
            seed: a.seed.to_string(),
            decisions_done: int(a.done),
            decisions: int(a.total),
            moves: a.result.iter().flat_map(|r| r.moves.iter().map(analysed)).collect(),
            players: a.result.iter().flat_map(|r| r.players.iter().map(summary)).collect(),
        }
    }
}
