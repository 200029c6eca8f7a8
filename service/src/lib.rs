//! What Chronicle's API does, apart from HTTP and GraphQL: submitting and verifying logs of every
//! game (through [`chronicle_ingest`], whose registry chooses the engine), reading games (through
//! a cache), replay states, bearer tokens, tournaments and statistics. The binary's GraphQL resolvers and
//! commands only translate between this and their surface.
//!
//! Caching: stored games change only through `chronicle reverify` (a separate process), so a
//! game read once is kept (bounded, least recently used first out) for the life of the server;
//! restart the server after a reverify. Tokens are not cached: `chronicle token revoke` (another
//! process) must take effect at the next request, so every authenticated request looks its
//! token up (one indexed read).
//!
//! Heavy work (replays) goes through [`admission::Admission`]; writes that fail because the disk
//! is full mark the store as unable to write until a write succeeds again ([`Service::ready`]).

pub mod admission;
pub mod analyses;
pub mod auth;
pub mod cost;
pub mod derived;
pub mod models;
pub mod outcome_corpora;
pub mod questions;
pub mod replicas;
pub mod skill_cache;
pub mod stats_corpus;
pub mod tallies;
pub mod tournament;

use chronicle_ingest::{canonical, games, inputs, pipeline};

use std::sync::{Arc, Mutex, RwLock};

use admission::{Admission, AdmissionLimits};
use chronicle_analytics::{AnalyticsError, Corpus, Stats};
use chronicle_game::{GameKind, StateAt};
use chronicle_store::record::GameRecord;
use chronicle_store::{
    Backend, Bearer, Changed, GameFilter, GameHead, Inserted, NewGame, Store, StoreError, StoreErrorKind, TokenLookup,
    TournamentChange, TournamentRow,
};
use cost::Budget;
use derived::{Kept, Key, Product};
use quick_cache::sync::Cache;

/// Why an operation did not happen. Each kind has a stable code (`extensions.code` in GraphQL).
/// The text of the server-side kinds (`Internal`, `StorageFull`, `Unavailable`) is for the
/// server's log: callers get [`ServiceError::public_message`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServiceError {
    /// Something failed on the server (a bug, a refused statement); nothing was changed.
    Internal(String),
    /// This server reads from a read-only standby database: writes go to a server on the
    /// primary.
    ReadOnly(String),
    /// The database's disk is full; nothing was changed.
    StorageFull(String),
    /// The database cannot be reached right now; nothing was changed.
    Unavailable(String),
    /// Too much heavy work is running or queued; retry later.
    Busy(String),
    /// The request asked for more work than one request may.
    BudgetExceeded(String),
    NotFound(String),
    BadInput(String),
    Unauthenticated(String),
    Forbidden(String),
}

impl ServiceError {
    pub fn code(&self) -> &'static str {
        match self {
            ServiceError::Internal(_) => "INTERNAL_SERVER_ERROR",
            ServiceError::ReadOnly(_) => "READ_ONLY_REPLICA",
            ServiceError::StorageFull(_) => "STORAGE_FULL",
            ServiceError::Unavailable(_) => "DATABASE_UNAVAILABLE",
            ServiceError::Busy(_) => "BUSY",
            ServiceError::BudgetExceeded(_) => "BUDGET_EXCEEDED",
            ServiceError::NotFound(_) => "NOT_FOUND",
            ServiceError::BadInput(_) => "BAD_USER_INPUT",
            ServiceError::Unauthenticated(_) => "UNAUTHENTICATED",
            ServiceError::Forbidden(_) => "FORBIDDEN",
        }
    }

    /// The full text, for the server's log.
    pub fn message(&self) -> &str {
        match self {
            ServiceError::Internal(m)
            | ServiceError::ReadOnly(m)
            | ServiceError::StorageFull(m)
            | ServiceError::Unavailable(m)
            | ServiceError::Busy(m)
            | ServiceError::BudgetExceeded(m)
            | ServiceError::NotFound(m)
            | ServiceError::BadInput(m)
            | ServiceError::Unauthenticated(m)
            | ServiceError::Forbidden(m) => m,
        }
    }

    /// Whether the text describes the server rather than the request: it is logged, and the
    /// caller gets a fixed text instead.
    pub fn is_server_side(&self) -> bool {
        matches!(
            self,
            ServiceError::Internal(_)
                | ServiceError::ReadOnly(_)
                | ServiceError::StorageFull(_)
                | ServiceError::Unavailable(_)
        )
    }

    /// What a caller may read: the request's own problem in full, a fixed text for the
    /// server's (which may name tables, paths or addresses).
    pub fn public_message(&self) -> &str {
        match self {
            ServiceError::Internal(_) => "internal error; nothing was changed (the server's log has the details)",
            ServiceError::ReadOnly(_) => {
                "this server reads from a read-only replica of the database and stores nothing; send writes to the primary's server"
            }
            ServiceError::StorageFull(_) => "the server's storage is full; nothing was stored, retry later",
            ServiceError::Unavailable(_) => "the database is unavailable; nothing was changed, retry later",
            other => other.message(),
        }
    }
}

fn internal(message: impl Into<String>) -> ServiceError {
    ServiceError::Internal(message.into())
}

fn stats_error(e: AnalyticsError) -> ServiceError {
    internal(format!("statistics: {e}"))
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> ServiceError {
        let text = e.to_string();
        match e.kind {
            StoreErrorKind::Full => ServiceError::StorageFull(text),
            StoreErrorKind::Unavailable => ServiceError::Unavailable(text),
            StoreErrorKind::ReadOnly => ServiceError::ReadOnly(text),
            StoreErrorKind::Other => ServiceError::Internal(text),
        }
    }
}

/// One submitted log's outcome.
#[derive(Clone, Debug)]
pub struct Submitted {
    pub game: Arc<GameHead>,
    /// The log was stored already (by this or an earlier submission); nothing changed.
    pub duplicate: bool,
}

/// Most games in one `submitGames` or `addGamesToTournament`.
pub const MAX_BATCH: usize = 1000;

/// What a Caverna statistics answer is computed over ([`Service::caverna_corpus`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CavernaCorpus {
    /// Player-games the answer counts.
    pub player_games: u64,
    /// Of those, from simulated games.
    pub simulated: u64,
    /// Simulated player-games left out (games played by people pass the filter too).
    pub left_out: u64,
}

pub struct Service {
    store: Backend,
    games: Cache<i64, Arc<GameHead>>,
    /// What replays derived from stored logs, bounded by bytes (see [`derived`]).
    derived: derived::Derived,
    /// The Caverna statistics over the store's tallies ([`tallies`]): every filter that
    /// selects whole buckets is answered from them. `None` until first read.
    tallied: RwLock<Option<Arc<tallies::Tallied>>>,
    /// The stored tallies read so far; held while the tallies are counted and read again, so
    /// that the two never interleave.
    tally_sync: tokio::sync::Mutex<tallies::Held>,
    /// The statistics over the rows of every stored complete game, for filters that select
    /// games one by one or cut a month (`load_stats` when first needed, then each new game).
    stats: Arc<RwLock<Stats>>,
    /// The skill statistics (ratings, strategy effects, the questions' rows) of each game, kept
    /// current (see [`skill_cache`]).
    skills: Vec<(GameKind, Arc<skill_cache::SkillCache>)>,
    /// The questions' answers, kept until the skill statistics they come from change.
    kept_questions: questions::Kept,
    /// The complete games in the statistics: a game stored by this process and announced by
    /// the store's notification (see [`replicas`]) is added once.
    counted: Mutex<std::collections::HashSet<i64>>,
    /// Held while the statistics are rebuilt or added to, so that the two never interleave.
    stats_writer: tokio::sync::Mutex<()>,
    /// The load of every stored game's rows, started by the first query that needs them
    /// ([`Service::rows_loaded`]).
    first_load: tokio::sync::watch::Sender<FirstLoad>,
    admission: Admission,
    /// Set when a write failed because the disk is full; cleared by the next successful write.
    cannot_write: Mutex<Option<String>>,
    /// Wakes the task that keeps the stored rating models current ([`models`]).
    models_poke: tokio::sync::Notify,
    /// Counts the models' task's runs, so that a query can wait for the next one.
    models_done: tokio::sync::watch::Sender<u64>,
    /// Whether this process runs (or is about to run) the models' task: ratings queries wait
    /// for it briefly.
    models_running: std::sync::atomic::AtomicBool,
    /// Whether the models' task was started (once per process).
    models_started: std::sync::atomic::AtomicBool,
    /// Wakes the analyses' worker ([`analyses`]): an analysis was queued.
    analyses_poke: tokio::sync::Notify,
    /// Whether the analyses' worker was started (once per process).
    analyses_started: std::sync::atomic::AtomicBool,
    /// The games' corpus versions as last read ([`models::CorpusVersions`]).
    corpus_versions: Mutex<models::CorpusVersions>,
}

/// The readiness of the service (`/readyz`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readiness {
    Ready,
    /// The database does not answer.
    DatabaseUnavailable,
    /// The database answers but cannot write (its disk is full).
    StorageFull,
}

/// Where the load of every stored game's rows stands ([`Service::rows_loaded`]).
#[derive(Clone, Debug, PartialEq, Eq)]
enum FirstLoad {
    /// No query needed the rows yet: none are held, and new games are not added to them.
    NotStarted,
    Running,
    /// Held, and kept current as games are stored.
    Done,
    /// It failed; the query that started it answers an internal error (the message goes to
    /// the server's log), and the next query that needs the rows tries again.
    Failed(String),
}

/// Puts the rows' load back to "not started" when the task that ran it went away before it
/// ended (its caller's request was dropped), so that the next caller starts it again.
struct LoadGuard<'a> {
    state: &'a tokio::sync::watch::Sender<FirstLoad>,
    finished: bool,
}

impl Drop for LoadGuard<'_> {
    fn drop(&mut self) {
        if !self.finished {
            self.state.send_replace(FirstLoad::NotStarted);
        }
    }
}

/// Complete games read per batch when loading the statistics.
const STATS_BATCH: i64 = 2000;

/// Most games a statistics query over one player's or one uploader's games reads by itself
/// ([`Service::stats_of_selected`]): a few hundred milliseconds of work at most. A player with
/// more (a simulator's bot over a large corpus) is answered from every game's rows instead.
pub const SELECTED_GAMES: i64 = 5_000;

/// Games whose facts are read per statement by [`Service::stats_of_selected`].
const STATS_BATCH_IDS: usize = 500;

/// Skill rows grouped by game, moved rather than copied (a load holds every stored game's).
fn by_game(
    rows: Vec<(GameKind, chronicle_analytics::skill::SkillGame)>,
) -> std::collections::HashMap<GameKind, Vec<chronicle_analytics::skill::SkillGame>> {
    let mut out: std::collections::HashMap<GameKind, Vec<_>> = std::collections::HashMap::new();
    for (kind, game) in rows {
        out.entry(kind).or_default().push(game);
    }
    out
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| internal(format!("worker failed: {e}")))
}

impl Service {
    /// A service over an open store, caching up to `cached_games` games, admitting heavy work
    /// within `limits`.
    pub fn new(store: Backend, cached_games: usize, limits: AdmissionLimits) -> Result<Service, ServiceError> {
        Ok(Service {
            store,
            games: Cache::new(cached_games.max(1)),
            derived: derived::new_cache(),
            tallied: RwLock::new(None),
            tally_sync: tokio::sync::Mutex::new(tallies::Held::default()),
            stats: Arc::new(RwLock::new(Stats::new().map_err(stats_error)?)),
            skills: GameKind::ALL
                .iter()
                .map(|&k| (k, Arc::new(skill_cache::SkillCache::new(stats_corpus::has_strategies(k)))))
                .collect(),
            kept_questions: Cache::new(questions::KEPT),
            counted: Mutex::default(),
            stats_writer: tokio::sync::Mutex::new(()),
            first_load: tokio::sync::watch::Sender::new(FirstLoad::NotStarted),
            admission: Admission::new(limits),
            cannot_write: Mutex::new(None),
            models_poke: tokio::sync::Notify::new(),
            analyses_poke: tokio::sync::Notify::new(),
            analyses_started: std::sync::atomic::AtomicBool::new(false),
            models_done: tokio::sync::watch::Sender::new(0),
            models_running: std::sync::atomic::AtomicBool::new(false),
            models_started: std::sync::atomic::AtomicBool::new(false),
            corpus_versions: Mutex::default(),
        })
    }

    pub fn admission(&self) -> &Admission {
        &self.admission
    }

    /// Admits statistics computed for one request (see [`admission`]).
    pub(crate) async fn compute(&self, what: &str) -> Result<admission::ComputePermit, ServiceError> {
        self.admission.compute(what).await.map_err(|b| ServiceError::Busy(b.0))
    }

    /// Remembers how a write ended: a full disk marks the store as unable to write, a success
    /// clears the mark.
    fn wrote<T>(&self, result: Result<T, StoreError>) -> Result<T, ServiceError> {
        let result = result.map_err(ServiceError::from);
        self.note_write(result.as_ref().map(|_| true));
        result
    }

    /// Remembers a write's outcome for readiness: `Ok(true)` when something was written,
    /// `Ok(false)` when nothing was (which proves nothing about the disk).
    fn note_write(&self, outcome: Result<bool, &ServiceError>) {
        let mark = match outcome {
            Ok(true) => None,
            Err(ServiceError::StorageFull(why)) => Some(why.clone()),
            Ok(false) | Err(_) => return,
        };
        if let Ok(mut slot) = self.cannot_write.lock() {
            if let Some(why) = &mark {
                tracing::error!(error = why.as_str(), "the store cannot write: its disk is full");
            } else if slot.take().is_some() {
                tracing::info!("the store writes again");
            }
            if mark.is_some() {
                *slot = mark;
            }
        }
    }

    /// Whether the service can do its work: the database answers, and, after a write failed on a
    /// full disk, a probe write succeeds again.
    pub async fn ready(&self) -> Readiness {
        let marked = self.cannot_write.lock().map(|m| m.is_some()).unwrap_or(true);
        if marked {
            // A probe that fails in any way means the store still cannot write (SQLite reports a
            // full disk met while checkpointing, or while opening a connection's files, as an
            // I/O error).
            return match self.wrote(self.store.probe_write().await) {
                Ok(()) => Readiness::Ready,
                Err(e) => {
                    tracing::warn!(error = e.message(), "readiness: the store still cannot write");
                    Readiness::StorageFull
                }
            };
        }
        match self.store.ping().await {
            Ok(()) => Readiness::Ready,
            Err(e) => {
                tracing::warn!(error = %e, "readiness: the database does not answer");
                Readiness::DatabaseUnavailable
            }
        }
    }

    /// Brings the store's statistics tallies up to date and reads them, on a task of its own
    /// ([`tallies`]), then keeps the stored rating models current ([`models`]): the server
    /// listens meanwhile, and statistics queries over whole buckets wait for the tallies. When the tallies are current (the usual case: every writer counts what it
    /// stores) this reads a few rows. The games' rows are read only when a query needs them
    /// ([`Service::rows_loaded`]).
    pub fn load_in_background(self: &Arc<Self>) {
        // Queued analyses run from the start (they need no statistics).
        self.analyses_in_background();
        // Ratings queries wait (briefly) for the models' task from now on: it starts once the
        // tallies are read.
        if !self.read_only() {
            self.models_running.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        let this = Arc::clone(self);
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            match this.refresh_tallies().await {
                Ok(counted) => {
                    let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                    tracing::info!(counted = counted.games, millis, "statistics tallies read");
                }
                Err(e) => tracing::error!(error = e.message(), "reading the statistics tallies"),
            }
            // The models cover the counted games: computed once these are counted.
            this.models_in_background();
        });
    }

    /// Counts what the tallies miss (on a writable store) and reads them again.
    pub async fn refresh_tallies(&self) -> Result<tallies::Counted, ServiceError> {
        let counting = self.tally_sync.lock().await;
        let counted = if self.read_only() {
            tallies::Counted::default()
        } else {
            // Counting writes: a full disk met here marks the store as a submission's would.
            let counted = tallies::catch_up(&self.store).await;
            self.note_write(counted.as_ref().map(|c| c.games > 0));
            if counted.as_ref().is_ok_and(|c| c.games > 0) {
                self.poke_models();
            }
            counted?
        };
        drop(counting);
        self.read_tallies().await?;
        Ok(counted)
    }

    /// Reads the tallies written since this process last read them (another process counted
    /// games: [`chronicle_store::changes::Change::Tallied`]).
    pub async fn read_tallies(&self) -> Result<(), ServiceError> {
        let mut held = self.tally_sync.lock().await;
        if let Some(fresh) = tallies::read(&self.store, &mut held).await? {
            *self.tallied.write().map_err(|_| internal("statistics lock poisoned"))? = Some(Arc::new(fresh));
        }
        Ok(())
    }

    /// The statistics over the stored tallies, read first when they were not yet.
    async fn tallied(&self) -> Result<Arc<tallies::Tallied>, ServiceError> {
        let kept = self.tallied.read().map_err(|_| internal("statistics lock poisoned"))?.clone();
        match kept {
            Some(stats) => Ok(stats),
            None => {
                let _sync = self.tally_sync.lock().await;
                let again = self.tallied.read().map_err(|_| internal("statistics lock poisoned"))?.clone();
                if let Some(stats) = again {
                    return Ok(stats);
                }
                drop(_sync);
                self.refresh_tallies().await?;
                self.tallied
                    .read()
                    .map_err(|_| internal("statistics lock poisoned"))?
                    .clone()
                    .ok_or_else(|| internal("no tallies"))
            }
        }
    }

    /// Whether the rows of every stored game are held (read by the first query that needed
    /// them).
    pub fn holds_rows(&self) -> bool {
        *self.first_load.borrow() == FirstLoad::Done
    }

    /// Reads every stored complete game's rows the first time a query needs them (players,
    /// uploaders or cut months with more than [`SELECTED_GAMES`] games, ratings, effects,
    /// questions); later callers wait for that read. A read that failed is tried again
    /// by the next caller; one whose caller went away is started again by the next.
    async fn rows_loaded(&self) -> Result<(), ServiceError> {
        if !self.holds_rows() {
            self.rows_admitted().await?;
        }
        let start = self.first_load.send_if_modified(|s| {
            let start = matches!(s, FirstLoad::NotStarted | FirstLoad::Failed(_));
            if start {
                *s = FirstLoad::Running;
            }
            start
        });
        if start {
            let mut guard = LoadGuard { state: &self.first_load, finished: false };
            let started = std::time::Instant::now();
            let state = match self.load_stats().await {
                Ok(games) => {
                    let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                    tracing::info!(games, millis, "statistics rows loaded");
                    FirstLoad::Done
                }
                Err(e) => {
                    tracing::error!(error = e.message(), "loading the statistics rows");
                    FirstLoad::Failed(e.message().to_owned())
                }
            };
            guard.finished = true;
            self.first_load.send_replace(state);
        }
        let mut state = self.first_load.subscribe();
        let state = state
            .wait_for(|s| *s != FirstLoad::Running)
            .await
            .map_err(|_| internal("the statistics' loader is gone"))?
            .clone();
        match state {
            FirstLoad::Failed(message) => Err(internal(format!("the statistics could not be loaded: {message}"))),
            FirstLoad::NotStarted => Box::pin(self.rows_loaded()).await,
            _ => Ok(()),
        }
    }

    /// Refuses the read of every game's rows when its estimate ([`admission::ROWS_BYTES_PER_GAME`]
    /// a stored game) is over the limit (`AdmissionLimits::rows_memory`): the read would take
    /// memory that grows with the store, once per process.
    async fn rows_admitted(&self) -> Result<(), ServiceError> {
        let games = usize::try_from(self.store.game_count().await?).unwrap_or(usize::MAX);
        let need = games.saturating_mul(admission::ROWS_BYTES_PER_GAME);
        let limit = self.admission.limits().rows_memory;
        if need <= limit {
            return Ok(());
        }
        Err(ServiceError::BudgetExceeded(rows_refusal(games, need, limit)))
    }

    /// Builds the statistics from every stored complete game; returns the number of games.
    pub async fn load_stats(&self) -> Result<usize, ServiceError> {
        let _writing = self.stats_writer.lock().await;
        let mut counted = std::collections::HashSet::new();
        let mut corpus = Corpus::new();
        let mut skill_games = Vec::new();
        let mut after = 0;
        loop {
            let batch = self.store.complete_records(after, STATS_BATCH).await?;
            let Some(last) = batch.last().map(|g| g.id) else { break };
            for g in &batch {
                counted.insert(g.id);
                stats_corpus::add_game(&mut corpus, g.id, g.uploader.as_deref(), &g.record).map_err(internal)?;
                skill_games.extend(stats_corpus::skill_game(g.id, &g.record).map_err(internal)?);
            }
            after = last;
        }
        let mut skill_games = by_game(skill_games);
        for (kind, cache) in &self.skills {
            cache.set(skill_games.remove(kind).unwrap_or_default())?;
        }
        let stats = Arc::clone(&self.stats);
        let games = blocking(move || {
            let fresh = Stats::from_corpus(&corpus).map_err(stats_error)?;
            let games = fresh.games();
            *stats.write().map_err(|_| internal("statistics lock poisoned"))? = fresh;
            Ok::<usize, ServiceError>(games)
        })
        .await??;
        *self.counted.lock().map_err(|_| internal("statistics lock poisoned"))? = counted;
        Ok(games)
    }

    /// Runs a Caverna statistics query for `filter` (on a blocking thread): over the stored
    /// tallies when the filter selects whole buckets; over the selected games' rows when it
    /// names players or an uploader with at most [`SELECTED_GAMES`] counted games; else over
    /// every game's rows (read first when no query needed them yet).
    ///
    /// `f` gets the statistics and the filter to read them with: `filter` itself, or, over a
    /// month a bound cuts, the filter widened to whole months ([`Service::stats_of_cut_months`]).
    async fn stats_for<T: Send + 'static>(
        &self,
        filter: &chronicle_analytics::StatsFilter,
        f: impl FnOnce(&Stats, &chronicle_analytics::StatsFilter) -> Result<T, AnalyticsError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        let filter = filter.clone();
        if !filter.needs_rows() {
            let tallied = self.tallied().await?;
            return blocking(move || f(&tallied.caverna, &filter).map_err(stats_error)).await?;
        }
        if !self.holds_rows() {
            let selected = if filter.cuts_months_only() {
                self.stats_of_cut_months(&filter).await?.map(|s| (s, filter.widened_to_months()))
            } else if filter.uploader.is_some() || !filter.players.is_empty() {
                self.stats_of_selected(&filter).await?.map(|s| (s, filter.clone()))
            } else {
                None
            };
            if let Some((stats, asked)) = selected {
                return blocking(move || f(&stats, &asked).map_err(stats_error)).await?;
            }
        }
        self.rows_loaded().await?;
        let stats = Arc::clone(&self.stats);
        blocking(move || {
            let stats = stats.read().map_err(|_| internal("statistics lock poisoned"))?;
            f(&stats, &filter).map_err(stats_error)
        })
        .await?
    }

    /// Statistics for a filter whose time bound cuts a month: the stored tallies of every other
    /// month, and for each cut month (at most two) buckets counted from that month's games
    /// within the bounds, read by month from the store (indexed). Read with
    /// [`chronicle_analytics::StatsFilter::widened_to_months`], they select the same games as
    /// `filter`. `None` when the cut months hold more than [`SELECTED_GAMES`] games (the query
    /// then reads every game's rows, once per process).
    async fn stats_of_cut_months(
        &self,
        filter: &chronicle_analytics::StatsFilter,
    ) -> Result<Option<Stats>, ServiceError> {
        let tallied = self.tallied().await?;
        let cut = filter.cut_months();
        let ids = self.store.counted_games_in_months(&cut, SELECTED_GAMES + 1).await?;
        if ids.len() > usize::try_from(SELECTED_GAMES).unwrap_or(usize::MAX) {
            return Ok(None);
        }
        let mut corpus = Corpus::new();
        for chunk in ids.chunks(STATS_BATCH_IDS) {
            for g in self.store.games_with_facts(chunk).await? {
                if filter.played_within(g.record.meta.played_at.as_deref()) {
                    stats_corpus::add_game(&mut corpus, g.id, g.uploader.as_deref(), &g.record).map_err(internal)?;
                }
            }
        }
        let other_months = tallied.caverna_buckets.iter().filter(|b| b.month.is_none_or(|m| !cut.contains(&m)));
        let mut buckets: Vec<chronicle_analytics::StoredBucket> = other_months.cloned().collect();
        blocking(move || {
            buckets.extend(Stats::from_corpus(&corpus).map_err(stats_error)?.stored_buckets());
            Stats::from_buckets(buckets).map_err(stats_error)
        })
        .await?
        .map(Some)
    }

    /// Statistics over the counted games of `filter`'s players or uploader, read from the
    /// store by those keys (indexed), so that such a query costs the games it selects rather
    /// than every stored game; `None` when they are more than [`SELECTED_GAMES`] (the query
    /// then reads every game's rows, once per process). The tallies are read first, so that
    /// the games selected are those counted when the server started, as the tallies'.
    async fn stats_of_selected(
        &self,
        filter: &chronicle_analytics::StatsFilter,
    ) -> Result<Option<Stats>, ServiceError> {
        self.tallied().await?;
        let ids = self.store.counted_games_of(&filter.players, filter.uploader.as_deref(), SELECTED_GAMES + 1).await?;
        if ids.len() > usize::try_from(SELECTED_GAMES).unwrap_or(usize::MAX) {
            return Ok(None);
        }
        let mut corpus = Corpus::new();
        for chunk in ids.chunks(STATS_BATCH_IDS) {
            for g in self.store.games_with_facts(chunk).await? {
                stats_corpus::add_game(&mut corpus, g.id, g.uploader.as_deref(), &g.record).map_err(internal)?;
            }
        }
        blocking(move || Stats::from_corpus(&corpus).map_err(stats_error)).await?.map(Some)
    }

    /// A Caverna statistics query over `filter`. A filter on an uploader or a player, or with
    /// a time bound inside a month, reads the games it selects and computes over them (up to
    /// [`SELECTED_GAMES`] games, a few hundred milliseconds), so it is admitted as a
    /// computation first ([`admission::Admission::compute`]); every other filter adds kept
    /// tallies only. `f` must read the statistics with the filter it is given (see
    /// [`Service::stats_for`]).
    pub async fn stats_over<T: Send + 'static>(
        &self,
        filter: chronicle_analytics::StatsFilter,
        f: impl FnOnce(&Stats, &chronicle_analytics::StatsFilter) -> Result<T, AnalyticsError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        let _slot = self.admitted_if_read(&filter).await?;
        let asked = filter.clone();
        self.stats_for(&asked, f).await
    }

    /// A computation slot when `filter` reads games for the request (it cannot be answered
    /// from whole buckets); `None` when it adds kept tallies only.
    async fn admitted_if_read(
        &self,
        filter: &chronicle_analytics::StatsFilter,
    ) -> Result<Option<admission::ComputePermit>, ServiceError> {
        match filter.needs_rows() {
            true => self.compute("statistics over games read for the request").await.map(Some),
            false => Ok(None),
        }
    }

    /// What a Caverna statistics answer over `filter` is computed over, and the filter to
    /// compute it with: simulated games are left out when games played by people pass the
    /// filter too, unless `include_simulated` or the filter names a source itself.
    pub async fn caverna_corpus(
        &self,
        filter: chronicle_analytics::StatsFilter,
        include_simulated: bool,
    ) -> Result<(chronicle_analytics::StatsFilter, CavernaCorpus), ServiceError> {
        const SIMULATED: &str = chronicle_analytics::skill::SIMULATED;
        let _slot = self.admitted_if_read(&filter).await?;
        let (n, sim) = self
            .stats_for(&filter, move |s, all| {
                let simulated = all.clone().source(SIMULATED.to_owned());
                Ok((s.scores(all, 5)?.player_games, s.scores(&simulated, 5)?.player_games))
            })
            .await?;
        let by_default = filter.source.is_none() && filter.exclude_source.is_none() && !include_simulated;
        let mixed = by_default && sim > 0 && sim < n;
        let corpus = CavernaCorpus {
            player_games: if mixed { n - sim } else { n },
            simulated: if mixed { 0 } else { sim },
            left_out: if mixed { sim } else { 0 },
        };
        Ok((if mixed { filter.exclude_source(SIMULATED.to_owned()) } else { filter }, corpus))
    }

    /// The outcome statistics of one game with counters (Village, Above and Below) over the
    /// games `filter` selects, added up from the stored tallies' buckets (every outcome filter
    /// selects whole buckets: a sum over a few dozen, not a pass over the games).
    pub async fn outcomes(
        &self,
        kind: chronicle_game::GameKind,
        filter: chronicle_analytics::outcomes::OutcomeFilter,
    ) -> Result<chronicle_analytics::outcomes::OutcomeReport, ServiceError> {
        let tallied = self.tallied().await?;
        let report = blocking(move || tallied.outcomes(kind, &filter)).await?;
        report.ok_or_else(|| ServiceError::BadInput(format!("{kind} has no outcome statistics")))
    }

    /// Ratings and the strategies' raw and controlled effects over every stored complete
    /// Caverna game, with the merged player identities as stored now (see [`skill_cache`]).
    pub async fn skill(&self) -> Result<Arc<chronicle_analytics::skill::Skill>, ServiceError> {
        self.skill_of(GameKind::Caverna).await
    }

    /// The ratings and the questions' rows of one game over its every stored complete game,
    /// with the merged player identities as stored now.
    pub async fn skill_of(&self, kind: GameKind) -> Result<Arc<chronicle_analytics::skill::Skill>, ServiceError> {
        self.rows_loaded().await?;
        let cache =
            self.skills.iter().find(|(k, _)| *k == kind).map(|(_, c)| c).ok_or_else(|| internal("no such game"))?;
        let aliases = self.store.player_aliases().await?.into_iter().collect();
        cache.get(aliases).await
    }

    /// Every identity key of the player `text` names (a key or a name): their canonical key
    /// and every identity merged into it. `None` when the text names nobody.
    pub async fn player_identities(&self, text: &str) -> Result<Option<Vec<String>>, ServiceError> {
        let Some(asked) = stats_corpus::key_of(text) else { return Ok(None) };
        let aliases = self.store.player_aliases().await?;
        let canonical = aliases.iter().find(|(a, _)| *a == asked).map_or(asked, |(_, c)| c.clone());
        let mut keys: Vec<String> = aliases.into_iter().filter(|(_, c)| *c == canonical).map(|(a, _)| a).collect();
        keys.insert(0, canonical);
        Ok(Some(keys))
    }

    /// Every merged player identity as (alias, canonical) keys.
    pub async fn player_aliases(&self) -> Result<Vec<(String, String)>, ServiceError> {
        Ok(self.store.player_aliases().await?)
    }

    /// Stored games with their verdicts and players, and their facts when `facts` (no logs),
    /// in the order asked; absent ids are left out. For exports: a few queries per call,
    /// nothing replayed.
    pub async fn export_games(&self, ids: &[i64], facts: bool) -> Result<Vec<GameHead>, ServiceError> {
        Ok(if facts { self.store.games_with_facts(ids).await? } else { self.store.game_heads(ids).await? })
    }

    /// The strategies' effects over the multiplayer games `filter` selects (the kept result
    /// for every game; others computed on each call: a few seconds over a million
    /// player-games).
    pub async fn skill_effects(
        &self,
        filter: chronicle_analytics::skill::EffectsFilter,
    ) -> Result<Vec<chronicle_analytics::skill::StrategyEffect>, ServiceError> {
        let skill = self.skill().await?;
        if filter == chronicle_analytics::skill::EffectsFilter::default() {
            return Ok(skill.effects.clone());
        }
        let _slot = self.compute("the strategies' effects over a filter").await?;
        blocking(move || Ok(skill.effects_where(&filter))).await?
    }

    /// Adds newly stored games to the statistics (only complete ones count).
    /// Adds stored games (id, uploader, record) to the statistics, each complete game once
    /// however often it is announced.
    pub(crate) async fn add_to_stats(&self, games: Vec<(i64, Option<String>, GameRecord)>) -> Result<(), ServiceError> {
        let _writing = self.stats_writer.lock().await;
        // Rows not read yet are read whole when first needed (which includes these games).
        if *self.first_load.borrow() == FirstLoad::NotStarted {
            return Ok(());
        }
        let games: Vec<(i64, Option<String>, GameRecord)> = {
            let mut counted = self.counted.lock().map_err(|_| internal("statistics lock poisoned"))?;
            games
                .into_iter()
                .filter(|(id, _, r)| r.status == chronicle_game::Status::Complete && counted.insert(*id))
                .collect()
        };
        let mut corpus = Corpus::new();
        let mut skill = Vec::new();
        for (id, uploader, record) in &games {
            stats_corpus::add_game(&mut corpus, *id, uploader.as_deref(), record).map_err(internal)?;
            skill.extend(stats_corpus::skill_game(*id, record).map_err(internal)?);
        }
        let mut skill = by_game(skill);
        for (kind, cache) in &self.skills {
            if cache.extend(skill.remove(kind).unwrap_or_default())? {
                cache.refresh_in_background();
            }
        }
        if corpus.player_games.is_empty() {
            return Ok(());
        }
        let stats = Arc::clone(&self.stats);
        blocking(move || {
            let mut stats = stats.write().map_err(|_| internal("statistics lock poisoned"))?;
            stats.add_games(&corpus).map_err(stats_error)
        })
        .await?
    }

    /// Drops every cached game and what was derived from their logs (their verdicts were
    /// rewritten elsewhere).
    fn forget_cached_games(&self) {
        self.games.clear();
        self.derived.clear();
    }

    pub fn store(&self) -> &Backend {
        &self.store
    }

    /// Whether the store is a read-only PostgreSQL standby: every write is refused with
    /// [`ServiceError::ReadOnly`], so pages say so before anyone tries.
    pub fn read_only(&self) -> bool {
        matches!(&self.store, Backend::Postgres(pg) if pg.is_standby())
    }

    /// `postgres` or `sqlite`.
    pub fn store_backend(&self) -> &'static str {
        self.store.backend()
    }

    /// Whom a bearer token belongs to, if it is valid now (looked up at every request, so that a
    /// revocation or an expiry takes effect at once).
    pub async fn bearer(&self, token: &str) -> Result<TokenLookup, ServiceError> {
        Ok(self.store.bearer(&auth::token_hash(token)).await?)
    }

    /// Stored games by id, in the order asked (absent ids are left out).
    pub async fn games(&self, ids: &[i64]) -> Result<Vec<Arc<GameHead>>, ServiceError> {
        let missing: Vec<i64> = ids.iter().copied().filter(|id| self.games.get(id).is_none()).collect();
        if !missing.is_empty() {
            for head in self.store.game_heads(&missing).await? {
                self.games.insert(head.id, Arc::new(head));
            }
        }
        Ok(ids.iter().filter_map(|id| self.games.get(id)).collect())
    }

    pub async fn game(&self, id: i64) -> Result<Option<Arc<GameHead>>, ServiceError> {
        Ok(self.games(&[id]).await?.pop())
    }

    /// Ids of the games matching `filter` after `after`, at most `limit`.
    pub async fn list(&self, filter: &GameFilter, after: i64, limit: i64) -> Result<Vec<i64>, ServiceError> {
        Ok(self.store.list_games(filter, after, limit).await?)
    }

    /// Replays and stores logs (valid or not); logs stored already are duplicates. One result
    /// per log, in order. All or nothing: either every new game is stored or (when the database
    /// refuses any of them) none, and the error says why.
    /// Only API tokens may submit: an organizer token changes its own tournament and nothing
    /// else. The token's name is recorded as the games' uploader.
    pub async fn submit(&self, logs: Vec<Vec<u8>>, by: &Bearer) -> Result<Vec<Submitted>, ServiceError> {
        let uploader_name = match by {
            Bearer::Api { name, .. } => Some(name.clone()),
            Bearer::Organizer { tournament } => {
                return Err(ServiceError::Forbidden(format!(
                    "an organizer token only changes its tournament ({tournament}); submit games with an API token"
                )))
            }
        };
        if logs.len() > MAX_BATCH {
            return Err(ServiceError::BadInput(format!("{} logs; at most {MAX_BATCH} per request", logs.len())));
        }
        let bytes: usize = logs.iter().map(Vec::len).sum();
        let threads = self.admission.threads_for(logs.len());
        let permit = self.admission.replay(threads, bytes).await.map_err(|b| ServiceError::Busy(b.0))?;
        let logs = Arc::new(logs);
        let keys = {
            let logs = Arc::clone(&logs);
            blocking(move || logs.iter().map(|l| canonical::identify(l)).collect::<Vec<_>>()).await?
        };
        let shas: Vec<String> = keys.iter().map(|k| k.sha256.clone()).collect();
        let known = self.store.known_games(&shas).await?;
        // Each log not stored yet is replayed once, however often the batch repeats it.
        let mut queued = std::collections::HashSet::new();
        let todo: Vec<(usize, canonical::Identity)> = keys
            .into_iter()
            .enumerate()
            .filter(|(_, k)| !known.contains_key(&k.sha256) && queued.insert(k.sha256.clone()))
            .collect();
        let new_games: Vec<NewGame> = {
            let logs = Arc::clone(&logs);
            let uploader = uploader_name.clone();
            blocking(move || {
                inputs::par_map_on(threads, &todo, |(i, key)| {
                    pipeline::prepare_identified(&logs[*i], key.clone(), uploader.as_deref())
                })
            })
            .await?
        };
        drop(permit);
        // All or nothing: a batch the database refuses in part is not stored at all.
        let inserted = self.wrote(self.store.insert_all(&new_games).await)?;
        let mut stored: std::collections::HashMap<&str, Inserted> = std::collections::HashMap::new();
        let mut fresh = Vec::new();
        for (g, r) in new_games.iter().zip(inserted) {
            if let Inserted::New(id) = r {
                fresh.push((id, uploader_name.clone(), g.record.clone()));
            }
            stored.insert(g.sha256.as_str(), r);
        }
        // The games are stored whatever happens to the statistics; a failure here is logged
        // (the statistics catch up at the next start).
        if let Err(e) = self.add_to_stats(fresh).await {
            tracing::error!(error = e.message(), "adding games to the statistics");
        }
        if let Err(e) = self.refresh_tallies().await {
            tracing::error!(error = e.message(), "counting games into the statistics tallies");
        }
        let mut ids = Vec::with_capacity(shas.len());
        let mut firsts = std::collections::HashSet::new();
        for sha in &shas {
            let (id, new) = match (known.get(sha), stored.get(sha.as_str())) {
                (Some(&id), _) => (id, false),
                (None, Some(Inserted::New(id))) => (*id, firsts.insert(sha.as_str())),
                (None, Some(Inserted::Duplicate(id))) => (*id, false),
                (None, Some(Inserted::Failed(reason))) => return Err(internal(reason.clone())),
                (None, None) => return Err(internal("a submitted log was neither stored nor found")),
            };
            ids.push((id, new));
        }
        let unique: Vec<i64> = ids.iter().map(|&(id, _)| id).collect();
        let heads = self.games(&unique).await?;
        let by_id: std::collections::HashMap<i64, Arc<GameHead>> = heads.into_iter().map(|h| (h.id, h)).collect();
        ids.into_iter()
            .map(|(id, new)| {
                let game = by_id.get(&id).cloned().ok_or_else(|| internal(format!("game {id} vanished")))?;
                Ok(Submitted { game, duplicate: !new })
            })
            .collect()
    }

    /// Admits a replay of a log that is not stored: charged to `budget`, then a replay slot and
    /// its memory.
    /// Work that costs `weight` times its log's size is charged and reserved as such.
    async fn admit_sent(
        &self,
        log: &[u8],
        weight: usize,
        budget: &Budget,
    ) -> Result<admission::ReplayPermit, ServiceError> {
        let cost = log.len().saturating_mul(weight);
        budget.charge(cost)?;
        self.admit(cost).await
    }

    /// A replay slot with the memory of work costing `cost` log bytes.
    async fn admit(&self, cost: usize) -> Result<admission::ReplayPermit, ServiceError> {
        self.admission.replay(1, cost).await.map_err(|b| ServiceError::Busy(b.0))
    }

    /// A stored game and what work costing `weight` times its log's size costs, charged to
    /// `budget` before the log is read (the size is stored with the game).
    async fn charge_stored(
        &self,
        id: i64,
        weight: usize,
        budget: &Budget,
    ) -> Result<(Arc<GameHead>, usize), ServiceError> {
        let head = self.stored(id).await?;
        let cost = usize::try_from(head.log_bytes).unwrap_or(usize::MAX).saturating_mul(weight);
        budget.charge(cost)?;
        Ok((head, cost))
    }

    /// Runs `work` over a log that is not stored, admitted as [`Service::admit_sent`] says.
    async fn on_sent<T: Send + 'static>(
        &self,
        log: Vec<u8>,
        weight: usize,
        budget: &Budget,
        work: impl FnOnce(&[u8], Option<&str>) -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let permit = self.admit_sent(&log, weight, budget).await?;
        let done = blocking(move || {
            let format = canonical::format_of(&log);
            work(&log, format.as_deref())
        })
        .await;
        drop(permit);
        done
    }

    /// Replays a log without storing it.
    pub async fn verify(&self, log: Vec<u8>, budget: &Budget) -> Result<GameRecord, ServiceError> {
        self.on_sent(log, 1, budget, games::record_of).await
    }

    /// The view of a log that is not stored after its last legal entry (see
    /// `GameEngine::open_view`): what the recorder draws.
    pub async fn open_view(
        &self,
        log: Vec<u8>,
        budget: &Budget,
    ) -> Result<Option<chronicle_game::BoardView>, ServiceError> {
        self.on_sent(log, 1, budget, games::open_view).await
    }

    /// A log that is not stored in words and its board (see `GameEngine::trail`): its entries'
    /// sentences and the view after the last, from one replay — what the recorder shows.
    pub async fn trail(
        &self,
        log: Vec<u8>,
        budget: &Budget,
    ) -> Result<Option<(Vec<String>, chronicle_game::BoardView)>, ServiceError> {
        self.on_sent(log, 1, budget, games::trail).await
    }

    /// What a replay of a log took as declared rather than checked (Above and Below's trust
    /// report, docs/api.md); `None` for a game whose engine checks everything it applies.
    pub async fn trust_report(&self, log: Vec<u8>, budget: &Budget) -> Result<Option<serde_json::Value>, ServiceError> {
        self.on_sent(log, 1, budget, games::trust_report).await
    }

    /// The legal entries where a log stops being legal (after its last legal entry; for an
    /// invalid log, the alternatives to its illegal entry); `None` when this build has no
    /// engine for the log's game.
    pub async fn legal_entries(
        &self,
        log: Vec<u8>,
        limit: usize,
        budget: &Budget,
    ) -> Result<Option<(chronicle_game::GameKind, chronicle_game::Legal)>, ServiceError> {
        self.on_sent(log, cost::LEGAL_WEIGHT, budget, move |log, format| games::legal_next(log, format, limit)).await
    }

    /// [`Service::legal_entries`] with each entry in words and what it will cost its player
    /// (a recorder's buttons), charged as [`cost::DESCRIBED_LEGAL_WEIGHT`].
    pub async fn described_legal_entries(
        &self,
        log: Vec<u8>,
        limit: usize,
        budget: &Budget,
    ) -> Result<Option<(chronicle_game::GameKind, chronicle_game::Legal, Vec<String>)>, ServiceError> {
        let work = move |log: &[u8], format: Option<&str>| games::legal_next_described(log, format, limit);
        self.on_sent(log, cost::DESCRIBED_LEGAL_WEIGHT, budget, work).await
    }

    /// The next step of building one entry after a log (the engine's step-by-step form);
    /// `None` when this build has no engine for the log's game, `Some(Err)` when the engine
    /// refuses the draft (a message for people). The draft is charged with the log.
    pub async fn entry_steps(
        &self,
        log: Vec<u8>,
        draft: serde_json::Value,
        budget: &Budget,
    ) -> Result<Option<(chronicle_game::GameKind, Result<chronicle_game::Steps, String>)>, ServiceError> {
        budget.charge(serde_json::to_vec(&draft).map_or(0, |d| d.len()))?;
        self.on_sent(log, cost::STEPS_WEIGHT, budget, move |log, format| games::entry_steps(log, format, &draft)).await
    }

    /// Entries that could follow a log that is not stored, each in words (the recorder's
    /// finished entry before it is recorded): one replay, and each entry applied once to a copy.
    pub async fn describe_next(
        &self,
        log: Vec<u8>,
        entries: Vec<serde_json::Value>,
        budget: &Budget,
    ) -> Result<Option<Vec<String>>, ServiceError> {
        budget.charge(serde_json::to_vec(&entries).map_or(0, |d| d.len()))?;
        self.on_sent(log, 2, budget, move |log, format| games::describe_next(log, format, &entries)).await
    }

    /// A stored game, or `NOT_FOUND`.
    async fn stored(&self, id: i64) -> Result<Arc<GameHead>, ServiceError> {
        self.game(id).await?.ok_or_else(|| ServiceError::NotFound(format!("no game {id}")))
    }

    /// The bytes of a stored game's log (kept once read, see [`derived`]); the caller has
    /// charged and admitted the work.
    async fn stored_log(&self, head: &GameHead) -> Result<Arc<Vec<u8>>, ServiceError> {
        let key = Key::Log(head.id);
        let guard = match self.derived.get_value_or_guard_async(&key).await {
            Ok(Kept { product: Product::Log(bytes), .. }) => return Ok(bytes),
            Ok(_) => return Err(internal("a kept log is not a log")),
            Err(guard) => guard,
        };
        let log = self
            .store
            .game_log(head.id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no game {}", head.id)))?;
        let bytes = Arc::new(blocking(move || log.decompress().map_err(internal)).await??);
        let _ = guard.insert(Kept::new(bytes.len(), Product::Log(Arc::clone(&bytes))));
        Ok(bytes)
    }

    /// What `work` derives from a stored game's log: charged to `budget` by the log's size
    /// (stored with the game, so known before the log is read), then kept or computed once —
    /// concurrent askers of the same product wait for the one that computes it — on a replay
    /// slot with the log's memory reserved.
    async fn derive(
        &self,
        id: i64,
        key: Key,
        budget: &Budget,
        work: impl FnOnce(Option<chronicle_game::GameKind>, &[u8]) -> Result<Product, ServiceError> + Send + 'static,
    ) -> Result<Product, ServiceError> {
        let (head, size) = self.charge_stored(id, 1, budget).await?;
        let guard = match self.derived.get_value_or_guard_async(&key).await {
            Ok(kept) => return Ok(kept.product),
            Err(guard) => guard,
        };
        let permit = self.admit(size).await?;
        let bytes = self.stored_log(&head).await?;
        let kind = head.record.game;
        let product = blocking(move || work(kind, &bytes)).await?;
        drop(permit);
        let product = product?;
        let _ = guard.insert(Kept::new(size, product.clone()));
        Ok(product)
    }

    /// The state of a stored game after entry `at` (after the last legal entry when `None`).
    pub async fn state(&self, id: i64, at: Option<usize>, budget: &Budget) -> Result<Arc<StateAt>, ServiceError> {
        let work = move |kind, bytes: &[u8]| {
            games::state_at(kind, bytes, at).map(|s| Product::State(Arc::new(s))).map_err(ServiceError::BadInput)
        };
        match self.derive(id, Key::State(id, at), budget, work).await? {
            Product::State(state) => Ok(state),
            _ => Err(internal("a kept state is not a state")),
        }
    }

    /// What each legal entry of a stored game changed (its engine's ledger), replayed once.
    pub async fn ledger(&self, id: i64, budget: &Budget) -> Result<Arc<Vec<chronicle_game::LedgerLine>>, ServiceError> {
        let work = |kind, bytes: &[u8]| Ok(Product::Ledger(Arc::new(games::ledger(kind, bytes))));
        match self.derive(id, Key::Ledger(id), budget, work).await? {
            Product::Ledger(lines) => Ok(lines),
            _ => Err(internal("a kept ledger is not a ledger")),
        }
    }

    /// Every position of a stored game with its view and ledger line, from one replay (see
    /// `GameEngine::timeline`): what the replay viewer steps through.
    pub async fn timeline(
        &self,
        id: i64,
        budget: &Budget,
    ) -> Result<Arc<Option<chronicle_game::Timeline>>, ServiceError> {
        let work = |kind, bytes: &[u8]| Ok(Product::Timeline(Arc::new(games::timeline(kind, bytes))));
        match self.derive(id, Key::Timeline(id), budget, work).await? {
            Product::Timeline(t) => Ok(t),
            _ => Err(internal("a kept timeline is not a timeline")),
        }
    }

    /// The trust report of a stored game (see [`Service::trust_report`]).
    pub async fn stored_trust(&self, id: i64, budget: &Budget) -> Result<Arc<Option<serde_json::Value>>, ServiceError> {
        let work = |kind: Option<chronicle_game::GameKind>, bytes: &[u8]| {
            let format = kind.map(|k| k.spec().format);
            Ok(Product::Trust(Arc::new(games::trust_report(bytes, format))))
        };
        match self.derive(id, Key::Trust(id), budget, work).await? {
            Product::Trust(report) => Ok(report),
            _ => Err(internal("a kept trust report is not one")),
        }
    }

    /// The legal entries where a stored game stops being legal (see [`Service::legal_entries`]);
    /// not kept (its answer depends on `limit`).
    pub async fn stored_legal(
        &self,
        id: i64,
        limit: usize,
        budget: &Budget,
    ) -> Result<Option<(chronicle_game::GameKind, chronicle_game::Legal)>, ServiceError> {
        let (head, cost) = self.charge_stored(id, cost::LEGAL_WEIGHT, budget).await?;
        let permit = self.admit(cost).await?;
        let bytes = self.stored_log(&head).await?;
        let format = head.format.clone();
        let legal = blocking(move || games::legal_next(&bytes, format.as_deref(), limit)).await;
        drop(permit);
        legal
    }

    /// [`Service::stored_legal`] with each entry in words and what it will cost its player
    /// (the invalid game page's alternatives), charged as [`cost::DESCRIBED_LEGAL_WEIGHT`].
    pub async fn stored_described_legal(
        &self,
        id: i64,
        limit: usize,
        budget: &Budget,
    ) -> Result<Option<(chronicle_game::GameKind, chronicle_game::Legal, Vec<String>)>, ServiceError> {
        let (head, cost) = self.charge_stored(id, cost::DESCRIBED_LEGAL_WEIGHT, budget).await?;
        let permit = self.admit(cost).await?;
        let bytes = self.stored_log(&head).await?;
        let format = head.format.clone();
        let legal = blocking(move || games::legal_next_described(&bytes, format.as_deref(), limit)).await;
        drop(permit);
        legal
    }

    /// The raw log of a stored game, as uploaded, charged to `budget` by its size.
    pub async fn log(&self, id: i64, budget: &Budget) -> Result<Arc<Vec<u8>>, ServiceError> {
        let (head, size) = self.charge_stored(id, 1, budget).await?;
        let permit = self.admit(size).await?;
        let bytes = self.stored_log(&head).await;
        drop(permit);
        bytes
    }

    /// Creates a tournament; returns it with its organizer token (shown only now).
    pub async fn create_tournament(&self, name: &str, by: &Bearer) -> Result<(TournamentRow, String), ServiceError> {
        let Bearer::Api { id, .. } = by else {
            return Err(ServiceError::Forbidden(
                "an organizer token cannot create tournaments; use an API token".into(),
            ));
        };
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ServiceError::BadInput("a tournament name has 1 to 200 characters".into()));
        }
        let token = auth::new_token().map_err(internal)?;
        let row = self.wrote(self.store.create_tournament(name, &auth::token_hash(&token), Some(*id)).await)?;
        Ok((row, token))
    }

    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, ServiceError> {
        Ok(self.store.tournament(id).await?)
    }

    /// Up to `limit` tournaments after id `after`, by id.
    pub async fn tournaments(&self, after: i64, limit: i64) -> Result<Vec<TournamentRow>, ServiceError> {
        Ok(self.store.tournaments(after, limit).await?)
    }

    /// Adds stored games to a tournament; needs that tournament's organizer token.
    pub async fn add_to_tournament(&self, tournament: i64, games: &[i64], by: &Bearer) -> Result<(), ServiceError> {
        if *by != (Bearer::Organizer { tournament }) {
            return Err(ServiceError::Forbidden(format!(
                "changing tournament {tournament} needs its organizer token as the bearer token"
            )));
        }
        if games.len() > MAX_BATCH {
            return Err(ServiceError::BadInput(format!("{} games; at most {MAX_BATCH} per request", games.len())));
        }
        self.one_game(tournament, games, None).await?;
        let missing = self.wrote(self.store.add_tournament_games(tournament, games).await)?;
        if !missing.is_empty() {
            let ids: Vec<String> = missing.iter().map(i64::to_string).collect();
            return Err(ServiceError::NotFound(format!("no game {}; nothing was added", ids.join(", "))));
        }
        Ok(())
    }

    /// Refuses to mix games of different games in one tournament (standings compare totals):
    /// `games` joining it, beside its games other than `leaving` (a replaced game). Logs that
    /// record no known game are not counted: they are invalid and score nothing.
    async fn one_game(&self, tournament: i64, games: &[i64], leaving: Option<i64>) -> Result<(), ServiceError> {
        let mut ids: Vec<i64> = games.to_vec();
        let staying = self.store.tournament_games(tournament).await?.into_iter().find(|g| Some(*g) != leaving);
        ids.extend(staying);
        let kinds: std::collections::BTreeSet<chronicle_game::GameKind> =
            self.games(&ids).await?.iter().filter_map(|g| g.record.game).collect();
        if kinds.len() > 1 {
            let names: Vec<&str> = kinds.iter().map(|k| k.id()).collect();
            return Err(ServiceError::BadInput(format!(
                "a tournament holds games of one game; these are of {}: nothing was changed",
                names.join(", ")
            )));
        }
        Ok(())
    }

    /// Renames a tournament or removes or replaces one of its games; needs its organizer token.
    /// Returns the tournament as it is after the change.
    pub async fn change_tournament(
        &self,
        tournament: i64,
        change: TournamentChange,
        by: &Bearer,
    ) -> Result<TournamentRow, ServiceError> {
        if *by != (Bearer::Organizer { tournament }) {
            return Err(ServiceError::Forbidden(format!(
                "changing tournament {tournament} needs its organizer token as the bearer token"
            )));
        }
        let change = match change {
            TournamentChange::Rename(name) => {
                let name = name.trim().to_owned();
                if name.is_empty() || name.chars().count() > 200 {
                    return Err(ServiceError::BadInput("a tournament name has 1 to 200 characters".into()));
                }
                TournamentChange::Rename(name)
            }
            TournamentChange::Replace { old, new } => {
                self.one_game(tournament, &[new], Some(old)).await?;
                TournamentChange::Replace { old, new }
            }
            other => other,
        };
        match self.wrote(self.store.change_tournament(tournament, &change).await)? {
            Changed::Done => {}
            Changed::NoTournament => return Err(ServiceError::NotFound(format!("no tournament {tournament}"))),
            Changed::NotInTournament(g) => {
                return Err(ServiceError::NotFound(format!(
                    "game {g} is not in tournament {tournament}; nothing changed"
                )))
            }
            Changed::NoGame(g) => return Err(ServiceError::NotFound(format!("no game {g}; nothing changed"))),
        }
        self.store
            .tournament(tournament)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no tournament {tournament}")))
    }

    /// A tournament's games, by id.
    /// The games replaced in a tournament by a corrected upload, by id.
    pub async fn replaced_games(&self, tournament: i64) -> Result<Vec<i64>, ServiceError> {
        Ok(self.store.replaced_games(tournament).await?)
    }

    /// The tournaments that hold a stored game, by id.
    pub async fn game_tournaments(&self, game: i64) -> Result<Vec<TournamentRow>, ServiceError> {
        Ok(self.store.game_tournaments(game).await?)
    }

    pub async fn tournament_games(&self, tournament: i64) -> Result<Vec<Arc<GameHead>>, ServiceError> {
        let ids = self.store.tournament_games(tournament).await?;
        self.games(&ids).await
    }
}

/// Why a read of every game's rows is refused, in a player's words: how many games it would
/// hold at once against how many this server holds, rounded up to whole KiB below a MiB, else
/// MiB (a small store never reads "0 MiB"), what is always answered, and who can change it.
fn rows_refusal(games: usize, need: usize, limit: usize) -> String {
    // Below a MiB in KiB, so that a small store does not read "about 1 MiB" for a few KiB.
    let size = |b: usize| match b {
        b if b < 1 << 20 => format!("{} KiB", b.div_ceil(1 << 10)),
        b => format!("{} MiB", b.div_ceil(1 << 20)),
    };
    let at_most = limit / admission::ROWS_BYTES_PER_GAME;
    let games_word = |n: usize| if n == 1 { "1 game".to_owned() } else { format!("{n} games") };
    format!(
        "Answering this means holding every stored game at once ({}, about {}), and this server is set to hold at most {} ({}). Statistics without a filter, or filtered by player count, set, tournament, source, months or one player, come from stored totals and are always answered. The server's operator can raise the limit (--rows-memory-mib).",
        games_word(games),
        size(need),
        games_word(at_most),
        size(limit)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal over a small store rounds its memory up and counts games in words.
    #[test]
    fn the_rows_refusal_rounds_up_and_counts_games() {
        let one = rows_refusal(1, admission::ROWS_BYTES_PER_GAME, 0);
        assert!(one.contains("(1 game, about 8 KiB)") && one.contains("at most 0 games (0 KiB)"), "{one}");
        let many = rows_refusal(200, 200 * admission::ROWS_BYTES_PER_GAME, 4 << 20);
        let at_most = (4 << 20) / admission::ROWS_BYTES_PER_GAME;
        let said = format!("at most {at_most} games (4 MiB)");
        assert!(many.contains("(200 games, about 2 MiB)") && many.contains(&said), "{many}");
    }
}
