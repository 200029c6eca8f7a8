//! Analyses of stored games (docs/analysis.md, "On the server"): a request queues one in the
//! store (`game_analyses`), a worker of every server on a writable store takes the oldest,
//! judges its decisions one after the other on a blocking thread, records its progress after
//! each, and stores the result with the engine version, budget and seed, so that every process
//! and replica shows it at once afterwards.
//!
//! **Cost.** An analysis is CPU work of (decisions × budget) playouts. Each process runs one at
//! a time (one worker: at most one core), the queue holds at most [`MAX_PENDING`] analyses
//! (more is refused as busy, before anything is stored), anonymous requests get the server's
//! budget only (`--analysis-budget`), and a token's budget is at most [`MAX_SERVED_BUDGET`]. A legal log's decisions are
//! bounded by the rules (Caverna: 12 rounds × 7 players × 6 dwarfs = 504 placements).

use std::sync::Arc;
use std::time::Duration;

use chronicle_game::analysis::{Analysis, DEFAULT_BUDGET};
use chronicle_game::{GameKind, Status};
use chronicle_store::{AnalysisKey, AnalysisRow, AnalysisState, Store};

use crate::{blocking, internal, Service, ServiceError};

/// Analyses queued or running at most (over every process of the store).
pub const MAX_PENDING: i64 = 16;

/// The largest budget a token may ask the server for (playouts per decision).
pub const MAX_SERVED_BUDGET: u32 = 1_000;

/// The seed of every analysis the server runs: one analysis per game, engine and budget.
pub const SEED: u64 = 1;

/// A running analysis whose heartbeat is older than this was left by a stopped process: another
/// worker takes it again.
const STALE_SECS: i64 = 120;

/// How often an idle worker looks for queued analyses (it is also woken by each request).
const CHECK: Duration = Duration::from_secs(5);

/// An analysis of a stored game as pages and the API show it.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    pub state: AnalysisState,
    pub budget: u32,
    pub seed: u64,
    pub engine_version: String,
    /// Decisions analysed of `total` (0 of 0 until the worker has read the log).
    pub done: i64,
    pub total: i64,
    /// The analysis, once done.
    pub result: Option<Analysis>,
    /// Why it failed, for people.
    pub message: Option<String>,
}

fn now() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn view(row: AnalysisRow) -> Result<GameAnalysis, ServiceError> {
    let result = match (&row.state, &row.result) {
        (AnalysisState::Done, Some(text)) => {
            Some(serde_json::from_str(text).map_err(|e| internal(format!("a stored analysis does not read: {e}")))?)
        }
        _ => None,
    };
    Ok(GameAnalysis {
        state: row.state,
        budget: u32::try_from(row.key.budget).unwrap_or(0),
        seed: u64::try_from(row.key.seed).unwrap_or(0),
        engine_version: row.key.engine_version,
        done: row.done_moves,
        total: row.total_moves,
        result,
        message: row.message,
    })
}

impl Service {
    /// The key of a game's analysis at `budget` (default: the server's, `AdmissionLimits::analysis_budget`) by the current
    /// engine; refused for a game that is not stored or whose game is not analysed.
    async fn analysis_key(&self, game_id: i64, budget: Option<u32>) -> Result<(AnalysisKey, Status), ServiceError> {
        let head = self.game(game_id).await?.ok_or_else(|| ServiceError::NotFound(format!("no game {game_id}")))?;
        let kind: GameKind = head.record.game.ok_or_else(|| ServiceError::BadInput("this log names no game".into()))?;
        if !kind.spec().capabilities.analysis {
            return Err(ServiceError::BadInput(format!("{} games are not analysed yet", kind.spec().name)));
        }
        let engine = chronicle_ingest::games::engine(kind);
        let key = AnalysisKey {
            game_id,
            engine_version: engine.version().to_owned(),
            budget: i64::from(budget.unwrap_or(self.admission.limits().analysis_budget)),
            seed: i64::try_from(SEED).unwrap_or(0),
        };
        Ok((key, head.record.status))
    }

    /// A stored game's analysis at `budget` by the current engine, if one was asked for.
    pub async fn analysis(&self, game_id: i64, budget: Option<u32>) -> Result<Option<GameAnalysis>, ServiceError> {
        let (key, _) = self.analysis_key(game_id, budget).await?;
        self.store.analysis(&key).await?.map(view).transpose()
    }

    /// Asks for a stored game's analysis (see the module's "Cost"): the stored one when it was
    /// asked for before, else a new one queued for this store's workers. `signed_in` callers
    /// may choose the budget.
    pub async fn request_analysis(
        &self,
        game_id: i64,
        budget: Option<u32>,
        signed_in: bool,
    ) -> Result<GameAnalysis, ServiceError> {
        let served = self.admission.limits().analysis_budget;
        if let Some(b) = budget {
            if !signed_in && b != served {
                return Err(ServiceError::Forbidden(format!(
                    "anonymous analyses use this server's budget of {served} playouts a decision; another budget needs an API token"
                )));
            }
            if !(1..=MAX_SERVED_BUDGET).contains(&b) {
                return Err(ServiceError::BadInput(format!(
                    "a budget is 1 to {MAX_SERVED_BUDGET} playouts a decision"
                )));
            }
        }
        let (key, status) = self.analysis_key(game_id, budget).await?;
        if status == Status::Invalid {
            return Err(ServiceError::BadInput("this game's log is invalid: only legal play is analysed".into()));
        }
        if let Some(row) = self.store.analysis(&key).await? {
            return view(row);
        }
        if self.read_only() {
            return Err(ServiceError::ReadOnly(
                "this server reads a standby: analyses are asked for on the primary".into(),
            ));
        }
        let pending = self.store.pending_analyses().await?;
        if pending >= MAX_PENDING {
            return Err(ServiceError::Busy(format!(
                "{pending} analyses are waiting to run; ask again in a few minutes"
            )));
        }
        let row = self.wrote(self.store.request_analysis(&key, now()).await)?;
        self.analyses_poke.notify_one();
        view(row)
    }

    /// Runs queued analyses on a task of its own, one at a time, after each request and every
    /// [`CHECK`]. Nothing on a read-only standby.
    pub fn analyses_in_background(self: &Arc<Self>) {
        if self.read_only() || self.analyses_started.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let this = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                match this.store.claim_analysis(now(), now() - STALE_SECS).await {
                    Ok(Some(row)) => {
                        let key = row.key.clone();
                        let started = std::time::Instant::now();
                        let outcome = this.run_analysis(&key).await;
                        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                        let stored = match &outcome {
                            Ok(json) => this.store.finish_analysis(&key, Ok(json), now()).await,
                            Err(e) => {
                                tracing::error!(game = key.game_id, error = e.message(), "analysing a game");
                                let message = "the analysis failed; it can be asked for again after an upgrade";
                                this.store.finish_analysis(&key, Err(message), now()).await
                            }
                        };
                        if let Err(e) = stored {
                            tracing::error!(game = key.game_id, error = %e, "storing an analysis");
                        }
                        tracing::info!(game = key.game_id, budget = key.budget, millis, "game analysed");
                        continue;
                    }
                    Ok(None) => {}
                    Err(e) => tracing::error!(error = %e, "looking for queued analyses"),
                }
                let _ = tokio::time::timeout(CHECK, this.analyses_poke.notified()).await;
            }
        });
    }

    /// One analysis: every decision judged on a blocking thread, the progress recorded after
    /// each; the result as JSON.
    async fn run_analysis(&self, key: &AnalysisKey) -> Result<String, ServiceError> {
        let head = self.game(key.game_id).await?.ok_or_else(|| internal("the game analysed is gone"))?;
        let kind = head.record.game.ok_or_else(|| internal("the game analysed names no game"))?;
        let engine = chronicle_ingest::games::engine(kind);
        let log = self.store.game_log(key.game_id).await?.ok_or_else(|| internal("the game's log is gone"))?;
        let log = Arc::new(log.decompress().map_err(internal)?);
        let bytes = Arc::clone(&log);
        let entries = blocking(move || engine.analysis_moves(&bytes)).await?.map_err(internal)?;
        let total = i64::try_from(entries.len()).unwrap_or(i64::MAX);
        self.store.analysis_progress(key, 0, total, now()).await?;
        let (budget, seed) =
            (u32::try_from(key.budget).unwrap_or(DEFAULT_BUDGET), u64::try_from(key.seed).unwrap_or(SEED));
        let mut moves = Vec::with_capacity(entries.len());
        for (done, entry) in entries.into_iter().enumerate() {
            let bytes = Arc::clone(&log);
            let judged = blocking(move || {
                engine.analyse_move(&bytes, entry, budget, chronicle_game::rng::game_seed(seed, entry as u64))
            })
            .await?
            .map_err(internal)?;
            moves.push(judged);
            self.store.analysis_progress(key, i64::try_from(done + 1).unwrap_or(i64::MAX), total, now()).await?;
        }
        let mut seats: Vec<(i16, String)> = head.record.players.iter().map(|p| (p.seat, p.name.clone())).collect();
        seats.sort();
        let names: Vec<String> = seats.into_iter().map(|(_, name)| name).collect();
        let analysis = Analysis::new(engine.version(), budget, seed, &names, moves);
        serde_json::to_string(&analysis).map_err(|e| internal(format!("writing an analysis: {e}")))
    }
}
