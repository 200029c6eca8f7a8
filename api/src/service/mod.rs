//! What the API does, apart from HTTP and GraphQL: submitting and verifying logs, reading games
//! (through a cache), replay states, bearer tokens and tournaments. The GraphQL resolvers
//! (`crate::graphql`) only translate between this and the schema.
//!
//! Caching: stored games change only through `chronicle reverify` (a separate process), so a
//! game read once is kept (bounded, least recently used first out) for the life of the server;
//! restart the server after a reverify. Tokens are cached the same way (they are never revoked
//! while the server runs).

pub mod tournament;

use std::sync::{Arc, RwLock};

use chronicle_analytics::{AnalyticsError, Corpus, Stats};
use chronicle_engine::Replay;
use quick_cache::sync::Cache;

use crate::auth;
use crate::canonical;
use crate::facts::GameRecord;
use crate::store::{Backend, Bearer, GameFilter, GameHead, Inserted, NewGame, Store, StoreError, TournamentRow};

/// Why an operation did not happen. Each kind has a stable code (`extensions.code` in GraphQL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServiceError {
    /// The database failed; nothing was changed.
    Store(String),
    NotFound(String),
    BadInput(String),
    Unauthenticated(String),
    Forbidden(String),
}

impl ServiceError {
    pub fn code(&self) -> &'static str {
        match self {
            ServiceError::Store(_) => "INTERNAL_SERVER_ERROR",
            ServiceError::NotFound(_) => "NOT_FOUND",
            ServiceError::BadInput(_) => "BAD_USER_INPUT",
            ServiceError::Unauthenticated(_) => "UNAUTHENTICATED",
            ServiceError::Forbidden(_) => "FORBIDDEN",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            ServiceError::Store(m)
            | ServiceError::NotFound(m)
            | ServiceError::BadInput(m)
            | ServiceError::Unauthenticated(m)
            | ServiceError::Forbidden(m) => m,
        }
    }
}

fn stats_error(e: AnalyticsError) -> ServiceError {
    ServiceError::Store(format!("statistics: {e}"))
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> ServiceError {
        ServiceError::Store(e.0)
    }
}

/// One submitted log's outcome.
#[derive(Clone, Debug)]
pub struct Submitted {
    pub game: Arc<GameHead>,
    /// The log was stored already (by this or an earlier submission); nothing changed.
    pub duplicate: bool,
}

/// The state after an entry of a stored game.
#[derive(Clone, Debug)]
pub struct StateAt {
    pub replay: Replay,
    /// The entry the state follows; `None`: after the last legal entry (end-of-log defaults
    /// applied).
    pub at_entry: Option<usize>,
}

/// Most games in one `submitGames` or `addGamesToTournament`.
pub const MAX_BATCH: usize = 1000;

pub struct Service {
    store: Backend,
    games: Cache<i64, Arc<GameHead>>,
    bearers: Cache<String, Bearer>,
    /// The statistics of every stored complete game (`load_stats`, then each new game).
    stats: Arc<RwLock<Stats>>,
}

/// Complete games read per batch when loading the statistics.
const STATS_BATCH: i64 = 2000;

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ServiceError::Store(format!("worker failed: {e}")))
}

impl Service {
    /// A service over an open store, caching up to `cached_games` games.
    pub fn new(store: Backend, cached_games: usize) -> Result<Service, ServiceError> {
        Ok(Service {
            store,
            games: Cache::new(cached_games.max(1)),
            bearers: Cache::new(10_000),
            stats: Arc::new(RwLock::new(Stats::new().map_err(stats_error)?)),
        })
    }

    /// Builds the statistics from every stored complete game; returns the number of games.
    pub async fn load_stats(&self) -> Result<usize, ServiceError> {
        let mut corpus = Corpus::new();
        let mut after = 0;
        loop {
            let batch = self.store.complete_records(after, STATS_BATCH).await?;
            let Some(&(last, _)) = batch.last() else { break };
            for (id, record) in &batch {
                crate::stats_corpus::add_game(&mut corpus, *id, record).map_err(ServiceError::Store)?;
            }
            after = last;
        }
        let stats = Arc::clone(&self.stats);
        blocking(move || {
            let fresh = Stats::from_corpus(&corpus).map_err(stats_error)?;
            let games = fresh.games();
            *stats.write().map_err(|_| ServiceError::Store("statistics lock poisoned".into()))? = fresh;
            Ok(games)
        })
        .await?
    }

    /// Runs a statistics query (on a blocking thread: polars computes).
    pub async fn stats<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Stats) -> Result<T, AnalyticsError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        let stats = Arc::clone(&self.stats);
        blocking(move || {
            let stats = stats.read().map_err(|_| ServiceError::Store("statistics lock poisoned".into()))?;
            f(&stats).map_err(stats_error)
        })
        .await?
    }

    /// Adds newly stored games to the statistics (only complete ones count).
    async fn add_to_stats(&self, games: Vec<(i64, GameRecord)>) -> Result<(), ServiceError> {
        let mut corpus = Corpus::new();
        for (id, record) in &games {
            crate::stats_corpus::add_game(&mut corpus, *id, record).map_err(ServiceError::Store)?;
        }
        if corpus.player_games.is_empty() {
            return Ok(());
        }
        let stats = Arc::clone(&self.stats);
        blocking(move || {
            let mut stats = stats.write().map_err(|_| ServiceError::Store("statistics lock poisoned".into()))?;
            stats.add_games(&corpus).map_err(stats_error)
        })
        .await?
    }

    pub fn store(&self) -> &Backend {
        &self.store
    }

    /// Whom a bearer token belongs to (`None`: no such token).
    pub async fn bearer(&self, token: &str) -> Result<Option<Bearer>, ServiceError> {
        let hash = auth::token_hash(token);
        if let Some(b) = self.bearers.get(&hash) {
            return Ok(Some(b));
        }
        let found = self.store.bearer(&hash).await?;
        if let Some(b) = &found {
            self.bearers.insert(hash, b.clone());
        }
        Ok(found)
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
    /// per log, in order. Either every new game is stored or (on a database failure) none.
    pub async fn submit(&self, logs: Vec<Vec<u8>>, uploader: Option<String>) -> Result<Vec<Submitted>, ServiceError> {
        if logs.len() > MAX_BATCH {
            return Err(ServiceError::BadInput(format!("{} logs; at most {MAX_BATCH} per request", logs.len())));
        }
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
            blocking(move || {
                crate::inputs::par_map(&todo, |(i, key)| crate::import::prepare_identified(&logs[*i], key.clone(), uploader.as_deref()))
            })
            .await?
        };
        let inserted = self.store.insert_games(&new_games).await?;
        let mut stored: std::collections::HashMap<&str, Inserted> = std::collections::HashMap::new();
        let mut fresh = Vec::new();
        for (g, r) in new_games.iter().zip(inserted) {
            if let Inserted::New(id) = r {
                fresh.push((id, g.record.clone()));
            }
            stored.insert(g.sha256.as_str(), r);
        }
        // The games are stored whatever happens to the statistics; a failure here is logged
        // (the statistics catch up at the next start).
        if let Err(e) = self.add_to_stats(fresh).await {
            tracing::error!(error = e.message(), "adding games to the statistics");
        }
        let mut ids = Vec::with_capacity(shas.len());
        let mut firsts = std::collections::HashSet::new();
        for sha in &shas {
            let (id, new) = match (known.get(sha), stored.get(sha.as_str())) {
                (Some(&id), _) => (id, false),
                (None, Some(Inserted::New(id))) => (*id, firsts.insert(sha.as_str())),
                (None, Some(Inserted::Duplicate(id))) => (*id, false),
                (None, Some(Inserted::Failed(reason))) => return Err(ServiceError::Store(reason.clone())),
                (None, None) => return Err(ServiceError::Store("a submitted log was neither stored nor found".into())),
            };
            ids.push((id, new));
        }
        let unique: Vec<i64> = ids.iter().map(|&(id, _)| id).collect();
        let heads = self.games(&unique).await?;
        let by_id: std::collections::HashMap<i64, Arc<GameHead>> = heads.into_iter().map(|h| (h.id, h)).collect();
        ids.into_iter()
            .map(|(id, new)| {
                let game = by_id.get(&id).cloned().ok_or_else(|| ServiceError::Store(format!("game {id} vanished")))?;
                Ok(Submitted { game, duplicate: !new })
            })
            .collect()
    }

    /// Replays a log without storing it.
    pub async fn verify(&self, log: Vec<u8>) -> Result<GameRecord, ServiceError> {
        blocking(move || GameRecord::from_replay(&chronicle_engine::replay(&log))).await
    }

    /// The state of a stored game after entry `at` (after the last legal entry when `None`).
    pub async fn state(&self, id: i64, at: Option<usize>) -> Result<StateAt, ServiceError> {
        let log = self.store.game_log(id).await?.ok_or_else(|| ServiceError::NotFound(format!("no game {id}")))?;
        blocking(move || {
            let bytes = log.decompress().map_err(ServiceError::Store)?;
            let replay = crate::report::state_at(&bytes, at).map_err(ServiceError::BadInput)?;
            Ok(StateAt { replay, at_entry: at })
        })
        .await?
    }

    /// The raw log of a stored game, as uploaded.
    pub async fn log(&self, id: i64) -> Result<Vec<u8>, ServiceError> {
        let log = self.store.game_log(id).await?.ok_or_else(|| ServiceError::NotFound(format!("no game {id}")))?;
        blocking(move || log.decompress().map_err(ServiceError::Store)).await?
    }

    /// Creates a tournament; returns it with its organizer token (shown only now).
    pub async fn create_tournament(&self, name: &str, by: &Bearer) -> Result<(TournamentRow, String), ServiceError> {
        let Bearer::Api { id, .. } = by else {
            return Err(ServiceError::Forbidden("an organizer token cannot create tournaments; use an API token".into()));
        };
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ServiceError::BadInput("a tournament name has 1 to 200 characters".into()));
        }
        let token = auth::new_token().map_err(ServiceError::Store)?;
        let row = self.store.create_tournament(name, &auth::token_hash(&token), Some(*id)).await?;
        Ok((row, token))
    }

    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, ServiceError> {
        Ok(self.store.tournament(id).await?)
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
        let missing = self.store.add_tournament_games(tournament, games).await?;
        if !missing.is_empty() {
            let ids: Vec<String> = missing.iter().map(i64::to_string).collect();
            return Err(ServiceError::NotFound(format!("no game {}; nothing was added", ids.join(", "))));
        }
        Ok(())
    }

    /// A tournament's games, by id.
    pub async fn tournament_games(&self, tournament: i64) -> Result<Vec<Arc<GameHead>>, ServiceError> {
        let ids = self.store.tournament_games(tournament).await?;
        self.games(&ids).await
    }
}
