//! The GraphQL output and input types, built from the store's rows and the service's results.
//! Names and descriptions here are the schema (`api/schema.graphql`).

use std::sync::Arc;

use async_graphql::{ComplexObject, Context, Enum, InputObject, Json, Result, SimpleObject, ID};
use chronicle_game::{GameKind, GameSpec, Status};
use chronicle_store::record::{GameRecord, PlayerRow};
use chronicle_store::{GameHead, TournamentRow};

use crate::server::graphql::{errors, service};

/// How a replay ended.
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// Every entry legal and the game over.
    Complete,
    /// Every entry legal, the game not over.
    Incomplete,
    /// An entry (or the envelope or setup) is illegal; see `error`.
    Invalid,
}

impl From<Status> for GameStatus {
    fn from(s: Status) -> GameStatus {
        match s {
            Status::Complete => GameStatus::Complete,
            Status::Incomplete => GameStatus::Incomplete,
            Status::Invalid => GameStatus::Invalid,
        }
    }
}

impl From<GameStatus> for Status {
    fn from(s: GameStatus) -> Status {
        match s {
            GameStatus::Complete => Status::Complete,
            GameStatus::Incomplete => Status::Incomplete,
            GameStatus::Invalid => Status::Invalid,
        }
    }
}

/// The first illegal step of an invalid log.
#[derive(SimpleObject, Clone, Debug)]
pub struct LogError {
    /// Index of the entry in `entries` (0-based); null for the envelope and the setup.
    pub entry: Option<i32>,
    /// Seat of the player whose entry it is, when known.
    pub player: Option<i32>,
    /// Stable error code (docs/errors.md).
    pub code: String,
    pub message: String,
}

/// One row of a game's score pad with a player's points.
#[derive(SimpleObject, Clone, Debug)]
pub struct ScoreRow {
    /// The row's stable id (docs/rules: the game's score pad).
    pub id: String,
    /// What the score pad calls the row.
    pub label: String,
    pub points: i64,
}

/// A player's final score: the rows of the game's score pad in printed order, and the total.
/// The typed fields are Caverna's rows (RULES G.1), kept for clients written before other
/// games; they are null for other games.
#[derive(SimpleObject, Clone, Debug)]
pub struct Score {
    pub rows: Vec<ScoreRow>,
    pub total: i64,
    #[graphql(deprecation = "use `rows` (id `farm_animals_and_dogs`)")]
    pub farm_animals_and_dogs: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `missing_farm_animal_types`)")]
    pub missing_farm_animal_types: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `grain`)")]
    pub grain: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `vegetables`)")]
    pub vegetables: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `rubies`)")]
    pub rubies: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `dwarfs`)")]
    pub dwarfs: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `unused_spaces`)")]
    pub unused_spaces: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `tiles_pastures_mines`)")]
    pub tiles_pastures_mines: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `bonus_parlors_storages_chambers`)")]
    pub bonus_parlors_storages_chambers: Option<i64>,
    #[graphql(deprecation = "use `rows` (id `gold_and_begging`)")]
    pub gold_and_begging: Option<i64>,
}

impl Score {
    fn of(game: Option<GameKind>, s: &chronicle_game::Score) -> Score {
        let spec = game.map(GameKind::spec);
        // The deprecated fields name Caverna's rows; no other game has rows of those ids.
        let caverna = |id: &str| s.row(id);
        Score {
            rows: s
                .rows
                .iter()
                .map(|r| ScoreRow {
                    id: r.id.clone(),
                    label: spec.and_then(|g| g.row_label(&r.id)).unwrap_or(&r.id).to_owned(),
                    points: r.points,
                })
                .collect(),
            total: s.total,
            farm_animals_and_dogs: caverna("farm_animals_and_dogs"),
            missing_farm_animal_types: caverna("missing_farm_animal_types"),
            grain: caverna("grain"),
            vegetables: caverna("vegetables"),
            rubies: caverna("rubies"),
            dwarfs: caverna("dwarfs"),
            unused_spaces: caverna("unused_spaces"),
            tiles_pastures_mines: caverna("tiles_pastures_mines"),
            bonus_parlors_storages_chambers: caverna("bonus_parlors_storages_chambers"),
            gold_and_begging: caverna("gold_and_begging"),
        }
    }
}

#[derive(SimpleObject, Clone, Debug)]
pub struct Player {
    /// 0-based seat (order of `setup.players`).
    pub seat: i32,
    pub name: String,
    /// The player's own identifier across games (`setup.players[].id`), when the log gives one.
    pub player_id: Option<String>,
    /// Has the best total (ties: every player with it). False unless complete.
    pub winner: bool,
    /// 1 + the number of players with a higher total; complete games only.
    pub rank: Option<i32>,
    /// Complete games only.
    pub score: Option<Score>,
    /// The final score recorded at the table (`claimed.scores`), when the log has one.
    pub claimed_score: Option<i64>,
    /// The game's per-player counts (`GameKindInfo.counters`) read from the final state, for
    /// the statistics by count; complete games only, none for Caverna.
    pub counters: Vec<CounterValue>,
}

/// One per-player count of a complete game.
#[derive(SimpleObject, Clone, Debug)]
pub struct CounterValue {
    /// A `GameKindInfo.counters` id.
    pub id: String,
    pub label: String,
    pub value: i64,
}

impl Player {
    fn of(game: Option<GameKind>, p: &PlayerRow) -> Player {
        Player {
            seat: i32::from(p.seat),
            name: p.name.clone(),
            player_id: p.id.clone(),
            winner: p.winner,
            rank: p.rank.map(i32::from),
            score: p.score.as_ref().map(|s| Score::of(game, s)),
            claimed_score: p.claimed,
            counters: (p.counters.iter())
                .map(|c| CounterValue {
                    id: c.id.clone(),
                    label: game.and_then(|g| g.spec().counter_label(&c.id)).unwrap_or(&c.id).to_owned(),
                    value: c.value,
                })
                .collect(),
        }
    }
}

/// The log's `meta` object.
#[derive(SimpleObject, Clone, Debug)]
pub struct Meta {
    /// The uploader's own identifier of the game.
    pub id: Option<String>,
    pub tournament: Option<String>,
    /// As written in the log (RFC 3339 by convention).
    pub played_at: Option<String>,
    /// Who or what recorded the game (the simulator writes `simulate:` and its bots).
    pub source: Option<String>,
    /// Where the game was played (a club, a city, an event's venue), as the log says.
    pub place: Option<String>,
}

/// A recorded score that differs from the computed one.
#[derive(SimpleObject, Clone, Debug)]
pub struct ClaimedMismatch {
    pub player: i32,
    pub claimed: i64,
    pub computed: i64,
}

fn error_of(r: &GameRecord) -> Option<LogError> {
    r.error.as_ref().map(|e| LogError {
        entry: e.entry,
        player: e.player.and_then(|p| i32::try_from(p).ok()),
        code: e.code.clone(),
        message: e.message.clone(),
    })
}

fn mismatches_of(r: &GameRecord) -> Vec<ClaimedMismatch> {
    r.players
        .iter()
        .filter_map(|p| match (p.claimed, p.score.as_ref()) {
            (Some(claimed), Some(s)) if claimed != s.total => {
                Some(ClaimedMismatch { player: i32::from(p.seat), claimed, computed: s.total })
            }
            _ => None,
        })
        .collect()
}

/// A stored game.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(complex)]
pub struct Game {
    pub id: ID,
    #[graphql(flatten)]
    pub verdict: Verification,
    /// The log's `format` string.
    pub format: Option<String>,
    /// Name of the token that uploaded the game (or `chronicle import --uploader`).
    pub uploader: Option<String>,
    /// When the game was stored (UTC, RFC 3339).
    pub uploaded_at: String,
    /// SHA-256 of the canonical log: the dedupe key.
    pub log_sha256: String,
    #[graphql(skip)]
    pub db_id: i64,
    /// The game the log records (its ratings are that game's).
    #[graphql(skip)]
    pub kind: Option<chronicle_game::GameKind>,
}

impl From<&GameHead> for Game {
    fn from(h: &GameHead) -> Game {
        Game {
            id: ID(h.id.to_string()),
            verdict: Verification::with_source(&h.record, LogSource::Stored(h.id)),
            format: h.format.clone(),
            uploader: h.uploader.clone(),
            uploaded_at: h.uploaded_at.clone(),
            log_sha256: h.sha256.clone(),
            db_id: h.id,
            kind: h.record.game,
        }
    }
}

impl From<&Arc<GameHead>> for Game {
    fn from(h: &Arc<GameHead>) -> Game {
        Game::from(h.as_ref())
    }
}

/// A seat's Weng-Lin rating before a game.
#[derive(SimpleObject, Clone, Debug)]
pub struct SeatRating {
    pub seat: i32,
    pub mu: f64,
    pub sigma: f64,
    /// `mu − 3·sigma`.
    pub conservative: f64,
}

#[ComplexObject]
impl Game {
    /// Each seat's Weng-Lin rating before this game (docs/statistics.md), among the players of
    /// its game: what the game's players were rated when they sat down. Empty for games that
    /// are not rated (not complete, or solo), or not rated yet (the stored ratings follow new
    /// games within moments).
    async fn ratings_before(&self, ctx: &Context<'_>) -> Result<Vec<SeatRating>> {
        // As the stored rating model has them (a game stored in the last moments is rated by
        // the models' task shortly after).
        if self.kind.is_none() {
            return Ok(Vec::new());
        }
        let seats = service(ctx)?.seat_ratings(self.db_id).await.map_err(errors::service)?;
        Ok(seats
            .into_iter()
            .map(|s| SeatRating {
                seat: i32::from(s.seat),
                mu: s.mu_before,
                sigma: s.sigma_before,
                conservative: s.mu_before - 3.0 * s.sigma_before,
            })
            .collect())
    }

    /// The game's analysis by its game's search bot at `budget` playouts a decision (default:
    /// the server's, docs/analysis.md), if one was asked for (`analyseGame`): its progress
    /// while it runs, every decision judged and each player's summary once done.
    async fn analysis(
        &self,
        ctx: &Context<'_>,
        budget: Option<i32>,
    ) -> Result<Option<crate::server::graphql::analysis::GameAnalysisInfo>> {
        if !self.kind.is_some_and(|k| k.spec().capabilities.analysis) {
            return Ok(None);
        }
        let budget = budget.map(|b| u32::try_from(b).unwrap_or(0));
        let found = service(ctx)?.analysis(self.db_id, budget).await.map_err(errors::service)?;
        Ok(found.as_ref().map(Into::into))
    }

    /// The log's text exactly as uploaded (a string: parse it as JSON). Charged to the
    /// request's budget of log bytes by its size (docs/api.md, "Requests").
    #[graphql(complexity = "crate::server::graphql::REPLAY_COMPLEXITY")]
    async fn log(&self, ctx: &Context<'_>) -> Result<String> {
        let bytes =
            service(ctx)?.log(self.db_id, crate::server::graphql::budget(ctx)?).await.map_err(errors::service)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// What each legal entry changed, per player (the engine's ledger): `[{"entry", "round", "player",
    /// "changes": [{"player", "item", "delta"}]}]`, players 0-based as in logs. Charged to the request's
    /// budget of log bytes by the log's size.
    #[graphql(complexity = "crate::server::graphql::REPLAY_COMPLEXITY")]
    async fn ledger(&self, ctx: &Context<'_>) -> Result<Json<serde_json::Value>> {
        let lines =
            service(ctx)?.ledger(self.db_id, crate::server::graphql::budget(ctx)?).await.map_err(errors::service)?;
        let line = |l: &chronicle_game::LedgerLine| {
            let changes: Vec<serde_json::Value> = l
                .changes
                .iter()
                .map(|c| serde_json::json!({ "player": c.player, "item": c.item, "delta": c.delta }))
                .collect();
            serde_json::json!({ "entry": l.entry, "round": l.round, "player": l.player, "changes": changes })
        };
        Ok(Json(serde_json::Value::Array(lines.iter().map(line).collect())))
    }
}

/// Where a verdict's log is, for the fields that replay it again.
#[derive(Clone, Debug, Default)]
pub enum LogSource {
    #[default]
    None,
    /// The log sent with the request (`verifyLog`).
    Sent(Arc<Vec<u8>>),
    /// A stored game's log, by the game's id.
    Stored(i64),
}

/// The result of `verifyLog`: the replay's verdict, nothing stored.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(complex)]
pub struct Verification {
    /// The game the log records (`caverna`, `village`, `above-and-below`; see `gameKinds`);
    /// null when its format names no game Chronicle knows.
    pub game: Option<String>,
    pub status: GameStatus,
    /// The printed round reached (0 without a valid setup).
    pub round: i32,
    /// Entries applied; for an invalid log, the index of the illegal entry.
    pub entries_applied: i32,
    pub player_count: Option<i32>,
    /// The setup's variant, one of its game's `variants` (Caverna: `full` or `introductory`).
    pub variant: Option<String>,
    /// Caverna's furnishing set (`full` or `introductory`); null for other games.
    #[graphql(deprecation = "use `variant`")]
    pub furnishing_set: Option<String>,
    /// The engine version that produced this verdict.
    pub engine_version: String,
    pub error: Option<LogError>,
    /// In seat order; empty when the envelope or setup is invalid.
    pub players: Vec<Player>,
    /// Players whose recorded (claimed) score differs from the computed one.
    pub claimed_mismatches: Vec<ClaimedMismatch>,
    pub meta: Meta,
    /// The component data the log declares is labelled synthetic: made-up test data, not the
    /// printed game's (Village's synthetic table, Above and Below's synthetic cards or board).
    pub synthetic_data: bool,
    #[graphql(skip)]
    pub source: LogSource,
}

#[ComplexObject]
impl Verification {
    /// For an INVALID log rejected at an entry: the legal entries that could have stood there
    /// instead, grouped as `legalEntries` groups them (at most `limit`, 1 to 1,000, default
    /// 50). Null for a log that is not invalid or is rejected before its entries (envelope,
    /// setup, claimed scores).
    #[graphql(complexity = "crate::server::graphql::REPLAY_COMPLEXITY")]
    async fn alternatives(&self, ctx: &Context<'_>, limit: Option<i32>) -> Result<Option<Json<serde_json::Value>>> {
        let limit = limit.unwrap_or(50);
        if !(1..=1000).contains(&limit) {
            return Err(errors::bad_input("limit is 1 to 1000"));
        }
        if self.status != GameStatus::Invalid || self.error.as_ref().and_then(|e| e.entry).is_none() {
            return Ok(None);
        }
        let limit = usize::try_from(limit).unwrap_or(50);
        let (service, budget) = (service(ctx)?, crate::server::graphql::budget(ctx)?);
        let found = match &self.source {
            LogSource::None => return Ok(None),
            LogSource::Sent(bytes) => service.legal_entries(bytes.to_vec(), limit, budget).await,
            LogSource::Stored(id) => service.stored_legal(*id, limit, budget).await,
        }
        .map_err(errors::service)?;
        Ok(found.map(|(kind, legal)| Json(crate::server::graphql::query::group_legal(kind, legal, None))))
    }

    /// Above and Below only: the trust report (docs/api.md, "Trust report"): how many entries
    /// the rules checked, the catalogue and board data the log declared, and per player what
    /// was checked (explorations, first paragraphs against cave tables) and what was applied as
    /// the log declared it (custom effects, encounter rewards), with the warnings. An Above and
    /// Below log declares its own card data and encounter content, so a valid verdict rests on
    /// them. Null for the other games, whose engines check everything they apply.
    #[graphql(complexity = "crate::server::graphql::REPLAY_COMPLEXITY")]
    async fn trust(&self, ctx: &Context<'_>) -> Result<Option<Json<serde_json::Value>>> {
        let kind = self.game.as_deref().and_then(GameKind::from_id);
        if !kind.is_some_and(|k| k.spec().capabilities.trust_report) {
            return Ok(None);
        }
        let (service, budget) = (service(ctx)?, crate::server::graphql::budget(ctx)?);
        let report = match &self.source {
            LogSource::None => return Ok(None),
            LogSource::Sent(bytes) => service.trust_report(bytes.to_vec(), budget).await,
            LogSource::Stored(id) => service.stored_trust(*id, budget).await.map(|r| r.as_ref().clone()),
        }
        .map_err(errors::service)?;
        Ok(report.map(Json))
    }
}

impl Verification {
    /// The verdict of a log, with where the log is for `alternatives`.
    pub fn with_source(r: &GameRecord, source: LogSource) -> Verification {
        Verification { source, ..Verification::from(r) }
    }
}

impl From<&GameRecord> for Verification {
    fn from(r: &GameRecord) -> Verification {
        Verification {
            game: r.game.map(|g| g.id().to_owned()),
            status: r.status.into(),
            round: i32::from(r.round_reached),
            entries_applied: r.entries_applied,
            player_count: r.player_count.map(i32::from),
            variant: r.variant.clone(),
            furnishing_set: r.variant.clone().filter(|_| r.game == Some(GameKind::Caverna)),
            engine_version: r.engine_version.clone(),
            error: error_of(r),
            players: r.players.iter().map(|p| Player::of(r.game, p)).collect(),
            claimed_mismatches: mismatches_of(r),
            meta: Meta {
                id: r.meta.id.clone(),
                tournament: r.meta.tournament.clone(),
                played_at: r.meta.played_at.clone(),
                source: r.meta.source.clone(),
                place: r.meta.place.clone(),
            },
            synthetic_data: r.synthetic_data,
            source: LogSource::None,
        }
    }
}

/// The outcome of submitting one log.
#[derive(SimpleObject, Clone, Debug)]
pub struct SubmitResult {
    pub game: Game,
    /// The log was stored already; the existing game is returned and nothing changed.
    pub duplicate: bool,
}

/// The state of a stored game after an entry (the content of `chronicle state --json`,
/// documented in docs/state.md).
#[derive(SimpleObject, Clone, Debug)]
pub struct ReplayState {
    pub game_id: ID,
    /// The entry the state follows; null: after the last legal entry, end-of-log defaults
    /// applied.
    pub at_entry: Option<i32>,
    pub round: i32,
    /// The phase id (docs/state.md).
    pub phase: String,
    pub state: Json<serde_json::Value>,
}

/// Filters of `games`; every given field must match.
#[derive(InputObject, Clone, Debug, Default)]
pub struct GameFilter {
    /// Games of this game (a `gameKinds` id).
    pub game: Option<String>,
    pub player_count: Option<i32>,
    pub status: Option<GameStatus>,
    /// Games added to this tournament.
    pub tournament_id: Option<ID>,
    /// Games with a player of exactly this name.
    pub player_name: Option<String>,
    /// Games whose log names this tournament (`meta.tournament`, exact text).
    pub meta_tournament: Option<String>,
    /// `meta.playedAt` at or after this (ISO 8601, compared as text).
    pub played_from: Option<String>,
    /// `meta.playedAt` at or before this; a date alone includes that whole day.
    pub played_to: Option<String>,
    /// Games stored with the API token of this name.
    pub uploader: Option<String>,
    /// Games whose log's `meta.source` starts with this (`simulate`: every simulated game).
    pub source: Option<String>,
    /// Leaves out games whose log's `meta.source` starts with this (e.g. `simulate`).
    pub exclude_source: Option<String>,
}

/// A tournament's place table (complete games only; tie-breaks in docs/api.md).
#[derive(SimpleObject, Clone, Debug)]
pub struct Standing {
    /// Shared by players equal on wins and total score.
    pub rank: i32,
    pub player: String,
    pub games: i32,
    pub wins: i32,
    pub total_score: i64,
}

/// A player whose recorded score differs from the computed one.
#[derive(SimpleObject, Clone, Debug)]
pub struct ScoreMismatch {
    pub game_id: ID,
    /// Seat.
    pub player: i32,
    pub name: String,
    pub claimed: i64,
    pub computed: i64,
}

/// Whether a tournament stands: all games complete and legal, recorded scores as computed.
#[derive(SimpleObject, Clone, Debug)]
pub struct TournamentVerification {
    pub games: i32,
    pub all_complete: bool,
    pub all_legal: bool,
    pub score_mismatches: Vec<ScoreMismatch>,
    /// Complete games whose logs record no final scores (nothing to compare).
    pub unclaimed_games: Vec<ID>,
}

#[derive(SimpleObject, Clone, Debug)]
#[graphql(complex)]
pub struct Tournament {
    pub id: ID,
    pub name: String,
    /// UTC, RFC 3339.
    pub created_at: String,
    #[graphql(skip)]
    pub db_id: i64,
}

impl From<&TournamentRow> for Tournament {
    fn from(t: &TournamentRow) -> Tournament {
        Tournament { id: ID(t.id.to_string()), name: t.name.clone(), created_at: t.created_at.clone(), db_id: t.id }
    }
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

#[ComplexObject]
impl Tournament {
    /// Its games, by id.
    async fn games(&self, ctx: &Context<'_>) -> Result<Vec<Game>> {
        let games = service(ctx)?.tournament_games(self.db_id).await.map_err(errors::service)?;
        Ok(games.iter().map(Game::from).collect())
    }

    async fn standings(&self, ctx: &Context<'_>) -> Result<Vec<Standing>> {
        let games = service(ctx)?.tournament_games(self.db_id).await.map_err(errors::service)?;
        let refs: Vec<&GameHead> = games.iter().map(Arc::as_ref).collect();
        Ok(chronicle_service::tournament::standings(&refs)
            .into_iter()
            .map(|s| Standing {
                rank: count(s.rank),
                player: s.player,
                games: count(s.games),
                wins: count(s.wins),
                total_score: s.total_score,
            })
            .collect())
    }

    async fn verification(&self, ctx: &Context<'_>) -> Result<TournamentVerification> {
        let games = service(ctx)?.tournament_games(self.db_id).await.map_err(errors::service)?;
        let refs: Vec<&GameHead> = games.iter().map(Arc::as_ref).collect();
        let v = chronicle_service::tournament::verify(&refs);
        Ok(TournamentVerification {
            games: count(v.games),
            all_complete: v.all_complete,
            all_legal: v.all_legal,
            score_mismatches: v
                .score_mismatches
                .into_iter()
                .map(|m| ScoreMismatch {
                    game_id: ID(m.game.to_string()),
                    player: i32::from(m.seat),
                    name: m.name,
                    claimed: m.claimed,
                    computed: m.computed,
                })
                .collect(),
            unclaimed_games: v.unclaimed.iter().map(|id| ID(id.to_string())).collect(),
        })
    }
}

/// A game Chronicle knows: what its logs look like and how it is scored.
#[derive(SimpleObject, Clone, Debug)]
pub struct GameKindInfo {
    /// Stable id (`Game.game`, `GameFilter.game`).
    pub id: String,
    /// The `format` of its logs.
    pub format: String,
    pub name: String,
    pub min_players: i32,
    pub max_players: i32,
    /// The score pad's rows in printed order (points are in `Score.rows`).
    pub score_rows: Vec<ScoreRowInfo>,
    /// The variants a setup may choose; the first is the default.
    pub variants: Vec<String>,
    /// The per-player counts a complete game reports (`Player.counters`), for its statistics.
    pub counters: Vec<CounterInfo>,
    /// Whether this server verifies its logs (a game without an engine yet is stored as
    /// invalid, `unsupported_game`).
    pub verified: bool,
    /// What the game offers beyond what every game has.
    pub capabilities: GameCapabilities,
}

/// What a game offers beyond a verdict, states, legal entries, a ledger and simulated games.
#[derive(SimpleObject, Clone, Debug)]
pub struct GameCapabilities {
    /// Its logs declare component data taken on trust, and `Verification.trust` reports it.
    pub trust_report: bool,
    /// Its entries can be built step by step (`entrySteps`).
    pub step_form: bool,
    /// It has outcome statistics (`stats { outcomes(game:) }`).
    pub outcome_stats: bool,
    /// The web recorder records it.
    pub recorder: bool,
    /// Its positions include a board of cells with printed coordinates (a home board).
    pub board_view: bool,
    /// Its games are analysed move by move by a search bot (`analyseGame`, `Game.analysis`).
    pub analysis: bool,
}

/// A score-pad row or a counter of a game.
#[derive(SimpleObject, Clone, Debug)]
pub struct ScoreRowInfo {
    pub id: String,
    pub label: String,
}

/// A per-player count a complete game reports.
#[derive(SimpleObject, Clone, Debug)]
pub struct CounterInfo {
    pub id: String,
    pub label: String,
    /// The value is the round in which something first happened, 0 when it never did.
    pub round: bool,
}

impl GameKindInfo {
    pub fn of(spec: &GameSpec, verified: bool) -> GameKindInfo {
        GameKindInfo {
            id: spec.id.to_owned(),
            format: spec.format.to_owned(),
            name: spec.name.to_owned(),
            min_players: i32::from(spec.min_players),
            max_players: i32::from(spec.max_players),
            score_rows: spec
                .score_rows
                .iter()
                .map(|r| ScoreRowInfo { id: r.id.to_owned(), label: r.label.to_owned() })
                .collect(),
            variants: spec.variants.iter().map(|v| (*v).to_owned()).collect(),
            counters: spec
                .counters
                .iter()
                .map(|c| CounterInfo { id: c.id.to_owned(), label: c.label.to_owned(), round: c.round })
                .collect(),
            verified,
            capabilities: GameCapabilities {
                trust_report: spec.capabilities.trust_report,
                step_form: spec.capabilities.step_form,
                outcome_stats: spec.capabilities.outcome_stats,
                recorder: spec.capabilities.recorder,
                board_view: spec.capabilities.board_view,
                analysis: spec.capabilities.analysis,
            },
        }
    }
}

/// `createTournament`'s result: the organizer token is shown only here.
#[derive(SimpleObject, Clone, Debug)]
pub struct TournamentCreated {
    pub tournament: Tournament,
    /// The bearer token for changing this tournament. Keep it; it cannot be shown again.
    pub organizer_token: String,
}
