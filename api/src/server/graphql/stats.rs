//! Strategy statistics (the `analytics` crate) as GraphQL: complete, legal games only, current
//! with every stored game. Rates are fractions from 0 to 1 with their sample size `n`, a 95%
//! Wilson interval and `belowMinSample` (n under the filter's `minSample`, default 30).

use async_graphql::{Context, Enum, InputObject, Object, Result, SimpleObject};
use chronicle_analytics as analytics;
use chronicle_analytics::controlled::Effect;
use chronicle_analytics::rate::Difference;
use chronicle_analytics::{AnalyticsError, Rate, Stats};

use chronicle_game::GameKind;

use crate::server::graphql::outcomes::{outcome_stats, GameOutcomeStats, OutcomeStatsFilter};
use crate::server::graphql::{errors, service};

#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum FurnishingSetId {
    Full,
    Introductory,
}

/// Which games the statistics count; every given field must match.
#[derive(InputObject, Clone, Debug, Default)]
pub struct StatsFilter {
    pub player_count: Option<i32>,
    pub furnishing_set: Option<FurnishingSetId>,
    /// Exact `meta.tournament` of the logs.
    pub tournament: Option<String>,
    /// Games played at or after this (RFC 3339 or a date); games without a readable
    /// `meta.playedAt` are left out when a bound is given.
    pub played_from: Option<String>,
    /// Games played strictly before this.
    pub played_until: Option<String>,
    /// Games whose log's `meta.source` starts with this (the simulator writes `simulate:` and
    /// its bots, so `simulate` selects every simulated game).
    pub source: Option<String>,
    /// Leaves out games whose `meta.source` starts with this (e.g. `simulate`).
    pub exclude_source: Option<String>,
    /// Games stored with the API token of this name.
    pub uploader: Option<String>,
    /// Games in which this player sat (an identity key as `ratings` shows it, `id:…` or
    /// `name:…`, or a name; identities merged into the player count too). Every seat of those
    /// games counts, not only the player's.
    pub player: Option<String>,
    /// Rates with fewer observations are flagged `belowMinSample` (default 30).
    pub min_sample: Option<i32>,
    /// Keep simulated games beside games played by people. By default (and when neither
    /// `source` nor `excludeSource` is given) the two are not mixed: when games played by
    /// people pass the filter, simulated games are left out (`caverna { corpus }` says how many).
    pub include_simulated: Option<bool>,
}

impl StatsFilter {
    fn to_analytics(&self) -> Result<analytics::StatsFilter> {
        let mut f = analytics::StatsFilter::all();
        if let Some(n) = self.player_count {
            let n = u8::try_from(n)
                .ok()
                .filter(|n| (1..=7).contains(n))
                .ok_or_else(|| errors::bad_input("playerCount is 1 to 7"))?;
            f = f.player_count(n);
        }
        if let Some(set) = self.furnishing_set {
            f = f.furnishing_set(match set {
                FurnishingSetId::Full => analytics::FurnishingSet::Full,
                FurnishingSetId::Introductory => analytics::FurnishingSet::Introductory,
            });
        }
        if let Some(t) = &self.tournament {
            f = f.tournament(t.clone());
        }
        if let Some(s) = &self.source {
            f = f.source(s.clone());
        }
        if let Some(s) = &self.exclude_source {
            f = f.exclude_source(s.clone());
        }
        if let Some(u) = &self.uploader {
            f = f.uploader(u.clone());
        }
        for (bound, value) in [("playedFrom", &self.played_from), ("playedUntil", &self.played_until)] {
            if let Some(v) = value.as_deref().filter(|v| analytics::parse_played_at(v).is_none()) {
                return Err(errors::bad_input(format!("{bound} `{v}` is not an RFC 3339 time or a date")));
            }
        }
        if let Some(v) = &self.played_from {
            f = f.played_from(v.clone());
        }
        if let Some(v) = &self.played_until {
            f = f.played_until(v.clone());
        }
        if let Some(n) = self.min_sample {
            f = f.min_sample(u64::try_from(n).map_err(|_| errors::bad_input("minSample is 0 or more"))?);
        }
        Ok(f)
    }
}

/// A score distribution as GraphQL (every game's statistics have one).
pub(crate) fn score_distribution(stats: &analytics::ScoreStats) -> ScoreDistribution {
    ScoreDistribution {
        player_games: int(stats.player_games),
        mean: stats.mean,
        min: stats.min,
        max: stats.max,
        quantiles: stats.quantiles.map(|q| ScoreQuantiles {
            p10: q.p10,
            p25: q.p25,
            p50: q.p50,
            p75: q.p75,
            p90: q.p90,
        }),
        bucket_width: i32::try_from(stats.bucket_width).unwrap_or(i32::MAX),
        histogram: stats.histogram.iter().map(|b| ScoreBucket { from: b.from, count: int(b.count) }).collect(),
    }
}

/// A histogram's bucket width argument, checked (1 to 100).
pub(crate) fn checked_width(width: i32) -> Result<u32> {
    u32::try_from(width)
        .ok()
        .filter(|w| (1..=100).contains(w))
        .ok_or_else(|| errors::bad_input("bucketWidth is 1 to 100"))
}

pub(crate) fn int(n: u64) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// A rate with its sample.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "RateStat")]
pub struct RateView {
    /// Successes of `n`, from 0 to 1 (0 when n is 0).
    pub rate: f64,
    pub successes: i32,
    pub n: i32,
    pub ci_low: f64,
    pub ci_high: f64,
    pub below_min_sample: bool,
}

impl From<&Rate> for RateView {
    fn from(r: &Rate) -> RateView {
        RateView {
            rate: r.rate,
            successes: int(r.successes),
            n: int(r.n),
            ci_low: r.ci_low,
            ci_high: r.ci_high,
            below_min_sample: r.below_min_sample,
        }
    }
}

#[derive(SimpleObject, Clone, Debug)]
pub struct RoundWinRate {
    pub round: i32,
    pub win_rate: RateView,
}

/// One furnishing tile. Player-games count where the tile was in the game's set.
#[derive(SimpleObject, Clone, Debug)]
pub struct FurnishingStat {
    /// The tile id (RULES.md E).
    pub tile: String,
    pub player_games: i32,
    /// Player-games in which the tile was built.
    pub built: i32,
    /// Win rate of the player-games that built it; `ciLow`/`ciHigh` are its interval.
    pub win_rate_built: f64,
    pub win_rate_not_built: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// `built` is under the filter's minimum sample.
    pub below_min_sample: bool,
    pub mean_score_built: Option<f64>,
    pub mean_score_not_built: Option<f64>,
    /// Builders' mean score minus others', within player counts, weighted by builders.
    pub mean_score_difference: Option<f64>,
    /// The 95% interval of `meanScoreDifference`: Welch's variance of each player count's
    /// difference of means, combined as that of the weighted mean (docs/statistics.md).
    pub mean_score_difference_ci_low: Option<f64>,
    pub mean_score_difference_ci_high: Option<f64>,
    /// Builders' win rate minus others', within player counts, weighted by builders.
    pub win_rate_difference: Option<f64>,
    /// The 95% interval of `winRateDifference`: each player count's Newcombe interval,
    /// combined (MOVER; docs/statistics.md).
    pub win_rate_difference_ci_low: Option<f64>,
    pub win_rate_difference_ci_high: Option<f64>,
    pub avg_round_built: Option<f64>,
    pub build_rate: RateView,
    pub not_built: RateView,
    /// Win rate by the round the tile was built in (rounds in which it was built).
    pub by_round: Vec<RoundWinRate>,
}

/// A weapon strategy: peaceful (never armed), light (max strength ≤ 7), heavy (≥ 8).
#[derive(SimpleObject, Clone, Debug)]
pub struct WeaponStrategyStat {
    pub strategy: String,
    pub player_games: i32,
    pub win_rate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub below_min_sample: bool,
    pub mean_score: Option<f64>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct GroupStat {
    /// `strength:N` / `strength:none`, an expeditions bucket (`0`, `1-2`, `3-5`, `6+`), or
    /// `round:N` / `round:never` (the round of the first weapon).
    pub group: String,
    pub win_rate: RateView,
    pub mean_score: Option<f64>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct LootStat {
    pub item: String,
    /// Winners' player-games that took the item.
    pub winners: RateView,
    /// Other player-games that took the item.
    pub others: RateView,
    /// `winners.rate − others.rate`.
    pub difference: f64,
    /// Its 95% interval (Newcombe's hybrid score interval); null when a group is empty.
    pub difference_ci_low: Option<f64>,
    pub difference_ci_high: Option<f64>,
}

/// Weapons beyond the three strategies: by strongest weapon, by expeditions, and loot.
#[derive(SimpleObject, Clone, Debug)]
pub struct WeaponDetail {
    pub player_games: i32,
    pub by_max_strength: Vec<GroupStat>,
    pub by_expeditions: Vec<GroupStat>,
    /// By the round in which the player first held a weapon (`round:N`, `round:never`): the
    /// timing of arming.
    pub by_first_armed: Vec<GroupStat>,
    /// By the round of the first expedition (`round:N`, `round:never`).
    pub by_first_expedition: Vec<GroupStat>,
    /// Every loot item, by `difference` descending.
    pub loot: Vec<LootStat>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct SeatStat {
    pub player_count: i32,
    pub seat: i32,
    pub win_rate: RateView,
    /// Win rate with no seat advantage (ties shared): 1 / player count.
    pub expected: f64,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct FirstPlayerStat {
    /// Null in the pooled row.
    pub player_count: Option<i32>,
    pub win_rate: RateView,
    pub expected: f64,
    /// `winRate.rate − expected`.
    pub advantage: f64,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct SeatStats {
    pub by_seat: Vec<SeatStat>,
    pub first_player: Vec<FirstPlayerStat>,
    pub first_player_overall: Option<FirstPlayerStat>,
}

#[derive(SimpleObject, Clone, Copy, Debug)]
pub struct ScoreQuantiles {
    pub p10: f64,
    pub p25: f64,
    pub p50: f64,
    pub p75: f64,
    pub p90: f64,
}

#[derive(SimpleObject, Clone, Copy, Debug)]
pub struct ScoreBucket {
    /// Scores `from` to `from + bucketWidth − 1`.
    pub from: i64,
    pub count: i32,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct ScoreDistribution {
    pub player_games: i32,
    pub mean: Option<f64>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub quantiles: Option<ScoreQuantiles>,
    pub bucket_width: i32,
    pub histogram: Vec<ScoreBucket>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct SpaceUse {
    pub space: String,
    pub count: i32,
    /// `count` of the round's placements.
    pub share: f64,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct RoundSpaceUse {
    pub round: i32,
    pub placements: i32,
    pub spaces: Vec<SpaceUse>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct ActionSpaceStats {
    pub placements: i32,
    pub rounds: Vec<RoundSpaceUse>,
}

fn first_player(r: &analytics::FirstPlayerRow) -> FirstPlayerStat {
    FirstPlayerStat {
        player_count: r.player_count.map(i32::from),
        win_rate: RateView::from(&r.win_rate),
        expected: r.expected,
        advantage: r.advantage,
    }
}

fn group(name: String, g: &analytics::GroupStats) -> GroupStat {
    GroupStat { group: name, win_rate: RateView::from(&g.win_rate), mean_score: g.mean_score }
}

/// A difference of two rates with its 95% interval (Newcombe's hybrid score method).
#[derive(SimpleObject, Clone, Copy, Debug)]
pub struct DifferenceStat {
    pub difference: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// A model's estimate with its cluster-robust standard error (clustered by game) and 95%
/// interval.
#[derive(SimpleObject, Clone, Copy, Debug)]
pub struct EstimateStat {
    pub estimate: f64,
    pub std_error: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// Player-games that did something against those that did not, raw and controlled for who
/// plays (docs/statistics.md).
#[derive(SimpleObject, Clone, Debug)]
pub struct ComparisonStat {
    /// Win rate of the player-games that did, and of those that did not.
    pub used: RateView,
    pub not_used: RateView,
    /// `used − notUsed`: mostly measures who does it (skill), not what it does.
    pub raw_difference: Option<DifferenceStat>,
    /// Change of the probability of winning, controlled (a fraction).
    pub controlled_win: Option<EstimateStat>,
    /// Change of the score margin (own score minus the opponents' mean), controlled, in points.
    pub controlled_margin: Option<EstimateStat>,
    /// Players who did it in some games and not in others: only they inform the estimate.
    pub switchers: i32,
    /// Games in which a switcher did it: the games the estimate learns from.
    pub informing_games: i32,
    /// Why there is no controlled estimate, when the support (docs/statistics.md "Support": 20
    /// switchers, 30 informing games) is not met; null when it is.
    pub not_enough_data: Option<String>,
}

impl ComparisonStat {
    pub(crate) fn of(used: &Rate, not_used: &Rate, raw: Option<Difference>, controlled: &Effect) -> ComparisonStat {
        ComparisonStat {
            used: RateView::from(used),
            not_used: RateView::from(not_used),
            raw_difference: raw.map(|d| DifferenceStat {
                difference: d.difference,
                ci_low: d.ci_low,
                ci_high: d.ci_high,
            }),
            controlled_win: controlled.win.as_ref().map(estimate),
            controlled_margin: controlled.margin.as_ref().map(estimate),
            switchers: int(controlled.switchers),
            informing_games: int(controlled.informing_games),
            not_enough_data: controlled.not_enough_data(),
        }
    }
}

/// Groups by a round (`round:N`, `round:never`).
fn by_round(rounds: &[analytics::RoundStats]) -> Vec<GroupStat> {
    rounds.iter().map(|a| group(a.round.map_or("round:never".into(), |n| format!("round:{n}")), &a.stats)).collect()
}

/// A strategy (a furnishing tile, or `armed`: holding a weapon at some point) and its effect
/// on winning, raw and controlled for who plays it (docs/statistics.md): the controlled
/// estimates compare each player with themselves, holding the rating gap to the opponents,
/// the seat and the player count fixed. Multiplayer games only.
#[derive(SimpleObject, Clone, Debug)]
pub struct StrategyEffectStat {
    /// A tile id (RULES.md E) or `armed`.
    pub strategy: String,
    #[graphql(flatten)]
    pub comparison: ComparisonStat,
    /// Player-games and games the controlled models rest on.
    pub player_games: i32,
    pub games: i32,
    /// How the controlled estimates are computed.
    pub method: String,
}

/// A player's Weng-Lin rating (mu ± sigma; a new player is 25 ± 8.33).
#[derive(SimpleObject, Clone, Debug)]
pub struct PlayerRatingStat {
    /// The player's name as written in their latest rated game.
    pub player: String,
    /// The player's identity key: `id:<id>` when logs give the player an id, else
    /// `name:<name>` (trimmed, spaces collapsed, lower case); merged identities share one.
    pub key: String,
    pub mu: f64,
    pub sigma: f64,
    /// `mu − 3·sigma`, what the table is sorted by.
    pub conservative: f64,
    /// Rated games (complete multiplayer games).
    pub games: i32,
}

/// The method of [`StrategyEffectStat`], for callers.
pub const CONTROLLED_METHOD: &str = "within-player linear models (player fixed effects) of winning and of the score margin on the strategy, the rating gap to the opponents before the game (Weng-Lin), seat and player count; 95% intervals from standard errors clustered by game (CR1)";

fn estimate(e: &analytics::controlled::Estimate) -> EstimateStat {
    EstimateStat { estimate: e.estimate, std_error: e.std_error, ci_low: e.ci_low, ci_high: e.ci_high }
}

/// The statistics of every game, each under its own field.
#[derive(Default)]
pub struct StatsQuery;

/// Caverna's strategy statistics over its stored complete games (method, sample sizes and
/// intervals: docs/api.md, "Strategy statistics").
#[derive(Default)]
pub struct CavernaStats;

/// Runs a statistics query on the service's current statistics.
async fn query<T: Send + 'static>(
    ctx: &Context<'_>,
    filter: Option<StatsFilter>,
    f: impl FnOnce(&Stats, &analytics::StatsFilter) -> Result<T, AnalyticsError> + Send + 'static,
) -> Result<T> {
    let (stats_filter, _) = corpus_and_filter(ctx, filter).await?;
    service(ctx)?.stats_over(stats_filter, f).await.map_err(errors::service)
}

/// The analytics filter of a query (a player with every identity merged into them; simulated
/// games left out by default when games played by people pass it) and what it counts.
async fn corpus_and_filter(
    ctx: &Context<'_>,
    filter: Option<StatsFilter>,
) -> Result<(analytics::StatsFilter, chronicle_service::CavernaCorpus)> {
    let filter = filter.unwrap_or_default();
    let mut stats_filter = filter.to_analytics()?;
    let service = service(ctx)?;
    if let Some(player) = &filter.player {
        stats_filter.players = service
            .player_identities(player)
            .await
            .map_err(errors::service)?
            .ok_or_else(|| errors::bad_input("player names nobody"))?;
    }
    let include = filter.include_simulated.unwrap_or(false);
    service.caverna_corpus(stats_filter, include).await.map_err(errors::service)
}

/// What a Caverna statistics answer is computed over (the same filter, the same default).
#[derive(SimpleObject, Clone, Debug)]
pub struct CavernaCorpusStat {
    /// Player-games counted.
    pub player_games: i32,
    /// Of those, from simulated games (`meta.source` starting with `simulate`).
    pub simulated_player_games: i32,
    /// Simulated player-games left out: games played by people pass the filter too, and by
    /// default the two are not mixed.
    pub simulated_left_out: i32,
}

/// A game's ratings table (see `StatsQuery::ratings`).
async fn ratings_of(
    ctx: &Context<'_>,
    kind: GameKind,
    first: Option<i32>,
    offset: Option<i32>,
) -> Result<Vec<PlayerRatingStat>> {
    let first = first.unwrap_or(50);
    if !(1..=500).contains(&first) {
        return Err(crate::server::graphql::errors::bad_input("first is 1 to 500"));
    }
    let offset = usize::try_from(offset.unwrap_or(0))
        .map_err(|_| crate::server::graphql::errors::bad_input("offset is 0 or more"))?;
    let service = crate::server::graphql::service(ctx)?;
    let fail = crate::server::graphql::errors::service;
    if service.ratings_model(kind).await.map_err(fail)?.is_none() {
        let why =
            format!("the {} ratings are being computed from the stored games; retry in a moment", kind.spec().name);
        return Err(fail(chronicle_service::ServiceError::Busy(why)));
    }
    let table = service
        .rating_table(kind, u64::try_from(offset).unwrap_or(0), u64::try_from(first).unwrap_or(50))
        .await
        .map_err(fail)?;
    Ok(table
        .into_iter()
        .map(|r| PlayerRatingStat {
            conservative: r.mu - 3.0 * r.sigma,
            player: r.name,
            key: r.player,
            mu: r.mu,
            sigma: r.sigma,
            games: i32::try_from(r.games).unwrap_or(i32::MAX),
        })
        .collect())
}

#[Object]
impl StatsQuery {
    /// Caverna's strategy statistics.
    async fn caverna(&self) -> CavernaStats {
        CavernaStats
    }

    /// The questions players ask of a game, answered over its stored complete multiplayer
    /// games (docs/statistics.md, "Questions"): which seat has the edge, which source of points
    /// wins, and the game's own (Caverna: does building `tile` help — by default the tile built
    /// most often — and when to arm; Village and Above and Below: does a high count help). Each
    /// answer gives the raw win rates and difference beside the effect controlled for who
    /// plays, and a verdict. Simulated games are left out when games played by people exist,
    /// unless `includeSimulated`.
    async fn questions(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The game's id (`GameKind.id`).")] game: String,
        #[graphql(desc = "A furnishing tile id (Caverna).")] tile: Option<String>,
        #[graphql(default = false)] include_simulated: bool,
    ) -> Result<crate::server::graphql::questions::QuestionsStat> {
        crate::server::graphql::questions::questions(ctx, &game, tile, include_simulated).await
    }

    /// A game's players by Weng-Lin rating (best conservative rating first), from every stored
    /// complete multiplayer game of it in the order played: up to `first` (1 to 500, default
    /// 50), from rank `offset` (default 0).
    async fn ratings(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The game's id (`GameKind.id`).")] game: String,
        first: Option<i32>,
        offset: Option<i32>,
    ) -> Result<Vec<PlayerRatingStat>> {
        let kind = GameKind::from_id(&game)
            .ok_or_else(|| errors::bad_input(chronicle_game::bounded_message(&format!("no game `{game}`"))))?;
        ratings_of(ctx, kind, first, offset).await
    }

    /// A game's statistics by what players did (its counters, main source of points), seat
    /// and score, over its stored complete multiplayer games, for the games that have them
    /// (`GameKind.outcomeStats`: Village, Above and Below). Descriptive: they control for
    /// nothing (docs/statistics.md, "Village and Above and Below").
    async fn outcomes(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The game's id (`GameKind.id`).")] game: String,
        filter: Option<OutcomeStatsFilter>,
        #[graphql(default = 10, desc = "Score histogram bucket width, 1 to 100.")] bucket_width: i32,
    ) -> Result<GameOutcomeStats> {
        let kind = GameKind::from_id(&game).filter(|k| k.spec().capabilities.outcome_stats).ok_or_else(|| {
            crate::server::graphql::errors::bad_input(format!("no game `{game}` has outcome statistics"))
        })?;
        outcome_stats(ctx, kind, filter, bucket_width).await
    }

    /// Village's statistics by what players did (counters, main source of points), seat and
    /// score, over its stored complete multiplayer games. Descriptive: they control for
    /// nothing (docs/statistics.md, "Village and Above and Below").
    #[graphql(deprecation = "use `outcomes(game: \"village\")`")]
    async fn village(
        &self,
        ctx: &Context<'_>,
        filter: Option<OutcomeStatsFilter>,
        #[graphql(default = 10, desc = "Score histogram bucket width, 1 to 100.")] bucket_width: i32,
    ) -> Result<GameOutcomeStats> {
        outcome_stats(ctx, GameKind::Village, filter, bucket_width).await
    }

    /// Above and Below's statistics by what players did (counters, main source of points), seat
    /// and score, over its stored complete games. Descriptive: they control for nothing
    /// (docs/statistics.md, "Village and Above and Below").
    #[graphql(deprecation = "use `outcomes(game: \"above-and-below\")`")]
    async fn above_and_below(
        &self,
        ctx: &Context<'_>,
        filter: Option<OutcomeStatsFilter>,
        #[graphql(default = 10, desc = "Score histogram bucket width, 1 to 100.")] bucket_width: i32,
    ) -> Result<GameOutcomeStats> {
        outcome_stats(ctx, GameKind::AboveAndBelow, filter, bucket_width).await
    }

    #[graphql(deprecation = "use `caverna { furnishingStats }`")]
    async fn furnishing_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<Vec<FurnishingStat>> {
        CavernaStats.furnishing_stats(ctx, filter).await
    }

    #[graphql(deprecation = "use `caverna { weaponStats }`")]
    async fn weapon_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<Vec<WeaponStrategyStat>> {
        CavernaStats.weapon_stats(ctx, filter).await
    }

    #[graphql(deprecation = "use `caverna { weaponDetail }`")]
    async fn weapon_detail(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<WeaponDetail> {
        CavernaStats.weapon_detail(ctx, filter).await
    }

    #[graphql(deprecation = "use `caverna { seatStats }`")]
    async fn seat_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<SeatStats> {
        CavernaStats.seat_stats(ctx, filter).await
    }

    #[graphql(deprecation = "use `caverna { scoreDistribution }`")]
    async fn score_distribution(
        &self,
        ctx: &Context<'_>,
        filter: Option<StatsFilter>,
        #[graphql(default = 10, desc = "Histogram bucket width, 1 to 100.")] bucket_width: i32,
    ) -> Result<ScoreDistribution> {
        CavernaStats.score_distribution(ctx, filter, bucket_width).await
    }

    #[graphql(deprecation = "use `caverna { actionSpaceStats }`")]
    async fn action_space_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<ActionSpaceStats> {
        CavernaStats.action_space_stats(ctx, filter).await
    }
}

#[Object]
impl CavernaStats {
    /// Every strategy's raw and controlled effect on winning, over all stored complete
    /// multiplayer games; with `minRating`, over the games whose every player's rating before
    /// the game (`mu − 3·sigma`; a new player is at 0) is at least that; with `source` or
    /// `excludeSource`, over the games whose `meta.source` starts (or does not start) with
    /// that (`simulate`: the simulated games).
    async fn strategy_effects(
        &self,
        ctx: &Context<'_>,
        min_rating: Option<f64>,
        source: Option<String>,
        exclude_source: Option<String>,
        #[graphql(
            default = false,
            desc = "Keep simulated games beside games played by people (by default, without `source` or `excludeSource`, they are left out when both are stored)."
        )]
        include_simulated: bool,
    ) -> Result<Vec<StrategyEffectStat>> {
        if min_rating.is_some_and(|r| !r.is_finite()) {
            return Err(crate::server::graphql::errors::bad_input("minRating is a number"));
        }
        let filter = analytics::skill::EffectsFilter { min_rating, source, exclude_source };
        let kept = if filter == analytics::skill::EffectsFilter::default() {
            // Without a filter: what the stored model keeps (docs/scaling.md).
            let model = service(ctx)?.ratings_model(GameKind::Caverna).await.map_err(errors::service)?;
            let Some(model) = model else {
                let why = "the strategy effects are being computed from the stored games; retry in a moment";
                return Err(errors::service(chronicle_service::ServiceError::Busy(why.to_owned())));
            };
            model.effects
        } else {
            None
        };
        let effects = if let Some(kept) = kept {
            kept.view(include_simulated).effects.clone()
        } else {
            let skill = service(ctx)?.skill().await.map_err(errors::service)?;
            let (filter, _) = chronicle_service::questions::without_simulated(&skill, filter, include_simulated);
            service(ctx)?.skill_effects(filter).await.map_err(errors::service)?
        };
        Ok(effects
            .iter()
            .map(|e| StrategyEffectStat {
                strategy: e.strategy.id(),
                comparison: ComparisonStat::of(&e.used, &e.not_used, e.raw, &e.controlled),
                player_games: int(e.controlled.player_games),
                games: int(e.controlled.games),
                method: CONTROLLED_METHOD.to_owned(),
            })
            .collect())
    }

    /// Players by rating (best conservative rating first): up to `first` (1 to 500, default
    /// 50), from rank `offset` (default 0).
    async fn ratings(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        offset: Option<i32>,
    ) -> Result<Vec<PlayerRatingStat>> {
        ratings_of(ctx, GameKind::Caverna, first, offset).await
    }

    /// What the statistics over `filter` are computed over: how many player-games, how many
    /// simulated, how many simulated left out by default.
    async fn corpus(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<CavernaCorpusStat> {
        let (_, c) = corpus_and_filter(ctx, filter).await?;
        Ok(CavernaCorpusStat {
            player_games: int(c.player_games),
            simulated_player_games: int(c.simulated),
            simulated_left_out: int(c.left_out),
        })
    }

    /// Every furnishing tile: how often it is built and how its builders fare.
    async fn furnishing_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<Vec<FurnishingStat>> {
        let stats = query(ctx, filter, |s, f| s.furnishings(f)).await?;
        Ok(stats
            .tiles
            .iter()
            .map(|t| FurnishingStat {
                tile: t.tile.id().to_owned(),
                player_games: int(t.player_games),
                built: int(t.built),
                win_rate_built: t.win_rate_built.rate,
                win_rate_not_built: t.win_rate_not_built.rate,
                ci_low: t.win_rate_built.ci_low,
                ci_high: t.win_rate_built.ci_high,
                below_min_sample: t.win_rate_built.below_min_sample,
                mean_score_built: t.mean_score_built,
                mean_score_not_built: t.mean_score_not_built,
                mean_score_difference: t.mean_score_difference,
                mean_score_difference_ci_low: t.mean_score_difference_ci.map(|c| c.0),
                mean_score_difference_ci_high: t.mean_score_difference_ci.map(|c| c.1),
                win_rate_difference: t.win_rate_difference,
                win_rate_difference_ci_low: t.win_rate_difference_ci.map(|c| c.0),
                win_rate_difference_ci_high: t.win_rate_difference_ci.map(|c| c.1),
                avg_round_built: t.mean_round_built,
                build_rate: RateView::from(&t.build_rate),
                not_built: RateView::from(&t.win_rate_not_built),
                by_round: t
                    .by_round
                    .iter()
                    .map(|r| RoundWinRate { round: i32::from(r.round), win_rate: RateView::from(&r.win_rate) })
                    .collect(),
            })
            .collect())
    }

    /// Peaceful, light and heavy player-games: win rate and score.
    async fn weapon_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<Vec<WeaponStrategyStat>> {
        let stats = query(ctx, filter, |s, f| s.weapons(f)).await?;
        Ok(stats
            .by_class
            .iter()
            .map(|c| WeaponStrategyStat {
                strategy: c.class.id().to_owned(),
                player_games: int(c.stats.win_rate.n),
                win_rate: c.stats.win_rate.rate,
                ci_low: c.stats.win_rate.ci_low,
                ci_high: c.stats.win_rate.ci_high,
                below_min_sample: c.stats.win_rate.below_min_sample,
                mean_score: c.stats.mean_score,
            })
            .collect())
    }

    /// By strongest weapon, by number of expeditions, by the round of the first weapon, and the
    /// loot winners take.
    async fn weapon_detail(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<WeaponDetail> {
        let stats = query(ctx, filter, |s, f| s.weapons(f)).await?;
        Ok(WeaponDetail {
            player_games: int(stats.player_games),
            by_max_strength: stats
                .by_max_strength
                .iter()
                .map(|s| group(s.max_strength.map_or("strength:none".into(), |n| format!("strength:{n}")), &s.stats))
                .collect(),
            by_expeditions: stats.by_expeditions.iter().map(|e| group(e.bucket.id().to_owned(), &e.stats)).collect(),
            by_first_armed: by_round(&stats.by_first_armed),
            by_first_expedition: by_round(&stats.by_first_expedition),
            loot: stats
                .loot
                .iter()
                .map(|l| LootStat {
                    item: l.item.id().to_owned(),
                    winners: RateView::from(&l.winners),
                    others: RateView::from(&l.others),
                    difference: l.difference,
                    difference_ci_low: l.difference_ci.map(|c| c.0),
                    difference_ci_high: l.difference_ci.map(|c| c.1),
                })
                .collect(),
        })
    }

    /// Win rate by seat per player count, and the first player's advantage.
    async fn seat_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<SeatStats> {
        let stats = query(ctx, filter, |s, f| s.seats(f)).await?;
        Ok(SeatStats {
            by_seat: stats
                .by_seat
                .iter()
                .map(|s| SeatStat {
                    player_count: i32::from(s.player_count),
                    seat: i32::from(s.seat),
                    win_rate: RateView::from(&s.win_rate),
                    expected: s.expected,
                })
                .collect(),
            first_player: stats.first_player.iter().map(first_player).collect(),
            first_player_overall: stats.first_player_overall.as_ref().map(first_player),
        })
    }

    /// Final scores: quantiles and a histogram.
    async fn score_distribution(
        &self,
        ctx: &Context<'_>,
        filter: Option<StatsFilter>,
        #[graphql(default = 10, desc = "Histogram bucket width, 1 to 100.")] bucket_width: i32,
    ) -> Result<ScoreDistribution> {
        let width = checked_width(bucket_width)?;
        let stats = query(ctx, filter, move |s, f| s.scores(f, width)).await?;
        Ok(score_distribution(&stats))
    }

    /// Action-space use by round.
    async fn action_space_stats(&self, ctx: &Context<'_>, filter: Option<StatsFilter>) -> Result<ActionSpaceStats> {
        let stats = query(ctx, filter, |s, f| s.spaces(f)).await?;
        Ok(ActionSpaceStats {
            placements: int(stats.placements),
            rounds: stats
                .rounds
                .iter()
                .map(|r| RoundSpaceUse {
                    round: i32::from(r.round),
                    placements: int(r.placements),
                    spaces: r
                        .spaces
                        .iter()
                        .map(|s| SpaceUse { space: s.space.id().to_owned(), count: int(s.count), share: s.share })
                        .collect(),
                })
                .collect(),
        })
    }
}
