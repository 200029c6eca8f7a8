//! The statistics of the games with per-player counters (Village, Above and Below) as GraphQL:
//! one object per query, computed once from the service's kept rows (`analytics::outcomes`).
//! Descriptive: win rates and margins of the player-games that share a value, controlling for
//! nothing (docs/statistics.md, "Village and Above and Below").

use async_graphql::{Context, InputObject, Result, SimpleObject};
use chronicle_analytics::outcomes::{self, Mean, OutcomeFilter, OutcomeReport};
use chronicle_analytics::DEFAULT_MIN_SAMPLE;
use chronicle_game::GameKind;

use crate::server::graphql::stats::{checked_width, int, score_distribution, RateView, ScoreDistribution};
use crate::server::graphql::{errors, service};

/// Which games the statistics count; every given field must match.
#[derive(InputObject, Clone, Debug, Default)]
pub struct OutcomeStatsFilter {
    /// Games of at least this many players (1 to 10; solo games never enter win rates and
    /// margins, they are only counted in `soloGames`).
    pub min_players: Option<i32>,
    /// Games whose log's `meta.source` starts with this (the simulator writes `simulate:` and
    /// its bots, so `simulate` selects every simulated game).
    pub source: Option<String>,
    /// Leaves out games whose `meta.source` starts with this (e.g. `simulate`).
    pub exclude_source: Option<String>,
    /// Keep simulated games beside games played by people. By default (and when neither
    /// `source` nor `excludeSource` is given) the two are not mixed: when a stored game was not
    /// played by the simulator, simulated games are left out (`simulatedLeftOut` says how many).
    pub include_simulated: Option<bool>,
    /// Rates and means with fewer observations are flagged `belowMinSample` (default 30).
    pub min_sample: Option<i32>,
}

impl OutcomeStatsFilter {
    fn to_analytics(&self, width: u32) -> Result<OutcomeFilter> {
        let min_players = match self.min_players {
            None => 1,
            Some(n) => u8::try_from(n)
                .ok()
                .filter(|n| (1..=10).contains(n))
                .ok_or_else(|| errors::bad_input("minPlayers is 1 to 10"))?,
        };
        let min_sample = match self.min_sample {
            None => DEFAULT_MIN_SAMPLE,
            Some(n) => u64::try_from(n).map_err(|_| errors::bad_input("minSample is 0 or more"))?,
        };
        Ok(OutcomeFilter {
            min_players,
            source: self.source.clone(),
            exclude_source: self.exclude_source.clone(),
            include_simulated: self.include_simulated.unwrap_or(false),
            min_sample,
            bucket_width: width,
        })
    }
}

/// A mean with its sample: the 95% interval is `mean ± 1.96·s/√n` (s the sample standard
/// deviation), absent below two observations.
#[derive(SimpleObject, Clone, Copy, Debug)]
#[graphql(name = "MeanStat")]
pub struct MeanView {
    /// Absent when `n` is 0.
    pub mean: Option<f64>,
    pub n: i32,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub below_min_sample: bool,
}

impl From<&Mean> for MeanView {
    fn from(m: &Mean) -> MeanView {
        MeanView {
            mean: m.mean,
            n: int(m.n),
            ci_low: m.ci_low,
            ci_high: m.ci_high,
            below_min_sample: m.below_min_sample,
        }
    }
}

/// The player-games whose counter value is from `low` to `high` (`high` absent: `low` or more).
#[derive(SimpleObject, Clone, Debug)]
pub struct CounterGroupStat {
    pub low: i64,
    pub high: Option<i64>,
    pub win_rate: RateView,
    /// Own final score minus the mean of the opponents' scores.
    pub margin: MeanView,
}

/// One counter (`GameSpec::counters`): its smallest values one by one, larger ones together.
#[derive(SimpleObject, Clone, Debug)]
pub struct CounterStat {
    pub counter: String,
    pub label: String,
    /// Player-games that have the counter (games stored before counters existed have none until
    /// `chronicle reverify`).
    pub player_games: i32,
    pub groups: Vec<CounterGroupStat>,
}

/// The player-games whose main source of points (the score row with the most points; the first
/// in printed order on a tie) is `row`.
#[derive(SimpleObject, Clone, Debug)]
pub struct MainSourceStat {
    pub row: String,
    pub label: String,
    pub win_rate: RateView,
    pub margin: MeanView,
}

/// Mean points of a score row, winners against the other players.
#[derive(SimpleObject, Clone, Debug)]
pub struct RowPointsStat {
    pub row: String,
    pub label: String,
    pub winners: MeanView,
    pub others: MeanView,
}

/// Win rate of a seat (0 = first player) in games of one size.
#[derive(SimpleObject, Clone, Debug)]
pub struct OutcomeSeatStat {
    pub player_count: i32,
    pub seat: i32,
    pub win_rate: RateView,
    /// `1 / playerCount`: the win rate of every seat in an even game.
    pub expected: f64,
}

/// A game's statistics by what players did, seat and score.
#[derive(SimpleObject, Clone, Debug)]
pub struct GameOutcomeStats {
    /// Multiplayer games counted.
    pub games: i32,
    /// Of `games`, those Chronicle's bots played (`meta.source` starting `simulate:`).
    pub simulated_games: i32,
    /// Of `games`, those whose component data is labelled synthetic: made-up test data, not the
    /// printed game's, so their figures say nothing of the printed game.
    pub synthetic_games: i32,
    /// Simulated games left out because games played by people exist (`includeSimulated`
    /// keeps them); not in `games`.
    pub simulated_left_out: i32,
    pub player_games: i32,
    /// Solo games that pass the filter; in no statistic (no opponent to win against).
    pub solo_games: i32,
    pub counters: Vec<CounterStat>,
    /// Score rows that are some player-game's main source of points, in printed order.
    pub main_sources: Vec<MainSourceStat>,
    /// Every score row, in printed order.
    pub row_points: Vec<RowPointsStat>,
    pub seats: Vec<OutcomeSeatStat>,
    pub score_distribution: ScoreDistribution,
}

fn view(kind: GameKind, r: &OutcomeReport) -> GameOutcomeStats {
    let spec = kind.spec();
    let row_label = |id: &str| spec.row_label(id).unwrap_or_default().to_owned();
    let group = |g: &outcomes::ValueGroup| CounterGroupStat {
        low: g.low,
        high: g.high,
        win_rate: RateView::from(&g.win_rate),
        margin: MeanView::from(&g.margin),
    };
    GameOutcomeStats {
        games: int(r.games),
        simulated_games: int(r.simulated_games),
        synthetic_games: int(r.synthetic_games),
        simulated_left_out: int(r.simulated_left_out),
        player_games: int(r.player_games),
        solo_games: int(r.solo_games),
        counters: (r.counters.iter())
            .map(|c| CounterStat {
                counter: c.counter.clone(),
                label: spec.counter_label(&c.counter).unwrap_or_default().to_owned(),
                player_games: int(c.player_games),
                groups: c.groups.iter().map(group).collect(),
            })
            .collect(),
        main_sources: (r.main_sources.iter())
            .map(|s| MainSourceStat {
                row: s.row.clone(),
                label: row_label(&s.row),
                win_rate: RateView::from(&s.win_rate),
                margin: MeanView::from(&s.margin),
            })
            .collect(),
        row_points: (r.rows.iter())
            .map(|p| RowPointsStat {
                row: p.row.clone(),
                label: row_label(&p.row),
                winners: MeanView::from(&p.winners),
                others: MeanView::from(&p.others),
            })
            .collect(),
        seats: (r.seats.iter())
            .map(|s| OutcomeSeatStat {
                player_count: i32::from(s.player_count),
                seat: i32::from(s.seat),
                win_rate: RateView::from(&s.win_rate),
                expected: s.expected,
            })
            .collect(),
        score_distribution: score_distribution(&r.scores),
    }
}

/// The statistics of `kind` over the games `filter` selects.
pub(crate) async fn outcome_stats(
    ctx: &Context<'_>,
    kind: GameKind,
    filter: Option<OutcomeStatsFilter>,
    width: i32,
) -> Result<GameOutcomeStats> {
    let filter = filter.unwrap_or_default().to_analytics(checked_width(width)?)?;
    let report = service(ctx)?.outcomes(kind, filter).await.map_err(errors::service)?;
    Ok(view(kind, &report))
}
