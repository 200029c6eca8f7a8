//! The skill statistics (ratings and strategy effects, [`Skill`]) over every game's rows, kept
//! current with the stored games and the merged player identities: what the strategy effects
//! over a filter and the questions read. (The ratings pages and the unfiltered effects read
//! the stored models instead: [`crate::models`].)
//!
//! Computing them takes seconds over a million player-games, so they are computed once and
//! kept. Games stored later make the kept result stale: a recomputation starts in the
//! background at once ([`SkillCache::refresh_in_background`]), so the next query finds it done
//! or waits only for the rest of it. A query never returns a stale result: it waits for a
//! computation over every game stored before it and the aliases read at its start. Games are
//! kept in append-only batches, so a computation reads a snapshot (one `Arc` per batch) and
//! stores never wait for it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use chronicle_analytics::skill::{Skill, SkillGame};

use crate::stats_corpus::Aliases;
use crate::{internal, ServiceError};

/// A computed result, and what it was computed from.
struct Computed {
    generation: u64,
    aliases: Arc<Aliases>,
    skill: Arc<Skill>,
}

#[derive(Default)]
pub struct SkillCache {
    /// Whether the strategies' effects are computed (Caverna's: [`Skill::compute_for`]).
    with_strategies: bool,
    /// Every complete Caverna game, batch by batch (player keys before merging).
    batches: Mutex<Vec<Arc<Vec<SkillGame>>>>,
    /// Bumped whenever `batches` changes.
    generation: AtomicU64,
    current: RwLock<Option<Computed>>,
    /// Held while computing: one computation at a time; queries wait for it.
    computing: tokio::sync::Mutex<()>,
}

fn poisoned<T>(_: T) -> ServiceError {
    internal("skill lock poisoned")
}

impl SkillCache {
    /// An empty cache of one game's statistics, with the strategies' effects or without.
    pub fn new(with_strategies: bool) -> SkillCache {
        SkillCache { with_strategies, ..SkillCache::default() }
    }

    /// Replaces every game.
    pub fn set(&self, games: Vec<SkillGame>) -> Result<(), ServiceError> {
        *self.batches.lock().map_err(poisoned)? = vec![Arc::new(games)];
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Adds newly stored games; returns whether there were any.
    pub fn extend(&self, games: Vec<SkillGame>) -> Result<bool, ServiceError> {
        if games.is_empty() {
            return Ok(false);
        }
        self.batches.lock().map_err(poisoned)?.push(Arc::new(games));
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(true)
    }

    /// The kept result if it covers every game and these aliases.
    fn fresh(&self, aliases: &Aliases) -> Result<Option<Arc<Skill>>, ServiceError> {
        let generation = self.generation.load(Ordering::SeqCst);
        Ok(self
            .current
            .read()
            .map_err(poisoned)?
            .as_ref()
            .filter(|c| c.generation == generation && *c.aliases == *aliases)
            .map(|c| Arc::clone(&c.skill)))
    }

    /// The aliases of the kept result (none before the first computation).
    fn last_aliases(&self) -> Result<Arc<Aliases>, ServiceError> {
        Ok(self.current.read().map_err(poisoned)?.as_ref().map_or_else(Arc::default, |c| Arc::clone(&c.aliases)))
    }

    /// The statistics over every stored game with `aliases`, computed now unless kept.
    pub async fn get(self: &Arc<Self>, aliases: Aliases) -> Result<Arc<Skill>, ServiceError> {
        if let Some(skill) = self.fresh(&aliases)? {
            return Ok(skill);
        }
        let _turn = self.computing.lock().await;
        if let Some(skill) = self.fresh(&aliases)? {
            return Ok(skill);
        }
        let this = Arc::clone(self);
        tokio::task::spawn_blocking(move || this.compute(Arc::new(aliases)))
            .await
            .map_err(|e| internal(format!("worker failed: {e}")))?
    }

    fn compute(&self, aliases: Arc<Aliases>) -> Result<Arc<Skill>, ServiceError> {
        let (generation, batches) = {
            let batches = self.batches.lock().map_err(poisoned)?;
            (self.generation.load(Ordering::SeqCst), batches.clone())
        };
        let games = batches.iter().flat_map(|b| b.iter());
        let skill = Arc::new(Skill::compute_for(games, &aliases, self.with_strategies));
        *self.current.write().map_err(poisoned)? = Some(Computed { generation, aliases, skill: Arc::clone(&skill) });
        Ok(skill)
    }

    /// Starts computing over every game now (with the aliases of the kept result), so that the
    /// next query does not wait for all of it.
    pub fn refresh_in_background(self: &Arc<Self>) {
        let this = Arc::clone(self);
        tokio::spawn(async move {
            let aliases = match this.last_aliases() {
                Ok(a) => (*a).clone(),
                Err(e) => return tracing::error!(error = e.message(), "refreshing the skill statistics"),
            };
            if let Err(e) = this.get(aliases).await {
                tracing::error!(error = e.message(), "refreshing the skill statistics");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chronicle_analytics::skill::SkillSeat;

    fn game(id: i64, a: &str, b: &str) -> SkillGame {
        let seat = |player: &str, rank: u8| SkillSeat {
            player: player.to_owned(),
            name: player.to_owned(),
            rank,
            winner: rank == 1,
            total: 50 - i64::from(rank),
            tiles: Vec::new(),
            armed: false,
            features: chronicle_analytics::skill::SeatFeatures::default(),
        };
        SkillGame {
            game_id: id,
            played_at: None,
            source: None,
            synthetic_data: false,
            seats: vec![seat(a, 1), seat(b, 2)],
        }
    }

    /// A kept result is reused while nothing changes, and computed again after games are added
    /// or the aliases change, so no query sees a stale result.
    #[tokio::test]
    async fn skill_is_kept_until_games_or_aliases_change() {
        let cache = Arc::new(SkillCache::default());
        cache.set(vec![game(1, "name:a", "name:b")]).unwrap();
        let first = cache.get(Aliases::new()).await.unwrap();
        assert!(Arc::ptr_eq(&first, &cache.get(Aliases::new()).await.unwrap()));
        assert!(cache.extend(vec![game(2, "name:a", "name:c")]).unwrap());
        let second = cache.get(Aliases::new()).await.unwrap();
        assert_eq!((first.games, second.games), (1, 2));
        assert_eq!(second.ratings.table().len(), 3);
        let merged = cache.get([("name:c".to_owned(), "name:b".to_owned())].into()).await.unwrap();
        assert_eq!(merged.ratings.table().len(), 2);
        assert!(!cache.extend(Vec::new()).unwrap());
    }
}
