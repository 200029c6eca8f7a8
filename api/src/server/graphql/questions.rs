//! The questions players ask of a game's stored games, answered (docs/statistics.md,
//! "Questions"): the same answers as the `/questions/<game>` pages, with what they are
//! computed over.

use async_graphql::{Context, Result, SimpleObject};
use chronicle_analytics::questions::{Answer, Question};
use chronicle_game::GameKind;
use chronicle_service::questions::QuestionsReport;

use crate::server::graphql::stats::{int, ComparisonStat, CONTROLLED_METHOD};
use crate::server::graphql::{errors, service};

/// A game's questions and what they are computed over.
#[derive(SimpleObject, Clone, Debug)]
pub struct QuestionsStat {
    /// The game's id.
    pub game: String,
    /// Multiplayer player-games and games the answers are computed over.
    pub player_games: i32,
    pub games: i32,
    /// Of those, player-games of simulated games (`meta.source` starting with `simulate`), by
    /// source, and of games that declare synthetic component data.
    pub simulated_player_games: i32,
    pub simulated_by: Vec<SourceCount>,
    pub synthetic_player_games: i32,
    /// Simulated player-games left out: games played by people exist, and by default the two
    /// are not mixed (`includeSimulated` keeps them).
    pub simulated_left_out: i32,
    /// The tile asked about ("Does building it help?"; Caverna).
    pub tile: Option<String>,
    pub questions: Vec<QuestionStat>,
    /// How the controlled effects are computed.
    pub method: String,
}

/// Player-games of simulated games with one `meta.source`.
#[derive(SimpleObject, Clone, Debug)]
pub struct SourceCount {
    pub source: String,
    pub player_games: i32,
}

/// A question, its answer in a sentence and the comparisons behind it.
#[derive(SimpleObject, Clone, Debug)]
pub struct QuestionStat {
    /// `tile-<tile id>`, `arming`, `main-source`, `counter-<k>`, `seat-<players>`.
    pub id: String,
    pub asked: String,
    /// What the answers compare.
    pub method: String,
    /// What the controlled effects detect, in a sentence.
    pub summary: String,
    pub answers: Vec<AnswerStat>,
}

/// Player-games that did something against the others: raw and controlled, with a verdict.
#[derive(SimpleObject, Clone, Debug)]
pub struct AnswerStat {
    /// What the player-games did ("Seat 1", "Built the Weaving parlor").
    pub label: String,
    #[graphql(flatten)]
    pub comparison: ComparisonStat,
    /// `helps`, `hurts`, `no_detectable_effect` or `not_enough_data`, read from `controlledWin`.
    pub verdict: String,
    /// The verdict as a sentence.
    pub verdict_words: String,
}

fn answer(a: &Answer) -> AnswerStat {
    let c = &a.comparison;
    AnswerStat {
        label: a.label.clone(),
        comparison: ComparisonStat::of(&c.used, &c.not_used, c.raw, &c.controlled),
        verdict: a.verdict.id().to_owned(),
        verdict_words: a.verdict.words(),
    }
}

fn question(q: &Question) -> QuestionStat {
    QuestionStat {
        id: q.id.clone(),
        asked: q.asked.clone(),
        method: q.method.clone(),
        summary: q.summary(),
        answers: q.answers.iter().map(answer).collect(),
    }
}

fn report(r: &QuestionsReport) -> QuestionsStat {
    let c = &r.corpus;
    QuestionsStat {
        game: r.kind.id().to_owned(),
        player_games: int(c.player_games),
        games: int(c.games),
        simulated_player_games: int(c.simulated),
        simulated_by: c
            .simulated_by
            .iter()
            .map(|(s, n)| SourceCount { source: s.clone(), player_games: int(*n) })
            .collect(),
        synthetic_player_games: int(c.synthetic),
        simulated_left_out: int(r.simulated_left_out),
        tile: r.tile.map(|t| t.id().to_owned()),
        questions: r.questions.iter().map(question).collect(),
        method: CONTROLLED_METHOD.to_owned(),
    }
}

/// The questions of `game` (see `StatsQuery::questions`).
pub async fn questions(
    ctx: &Context<'_>,
    game: &str,
    tile: Option<String>,
    include_simulated: bool,
) -> Result<QuestionsStat> {
    let kind = GameKind::from_id(game)
        .ok_or_else(|| errors::bad_input(chronicle_game::bounded_message(&format!("no game `{game}`"))))?;
    let r = service(ctx)?.questions(kind, tile, include_simulated).await.map_err(errors::service)?;
    Ok(report(&r))
}
