//! [`Stats`]: the corpus as frames, kept fresh as games arrive, with cached query results.
//!
//! # Freshness
//!
//! - **Appending is eager and cheap.** [`Stats::add_games`] validates a batch, translates it
//!   into rows of the frames, tallies it (with polars, one group-by per tally part over the
//!   batch's rows only; tiles and spaces are counted during the translation, see `tally`) and then stacks the rows onto each frame's small tail (see
//!   `frames::Table`) and adds the tallies to its buckets' and classes' tallies (see
//!   `buckets`). The cost is proportional to the batch, plus an occasional merge of a frame's
//!   tail into its main block whose cost, spread over the rows appended, is a small constant.
//! - **Statistics are computed from tallies and cached per query.** Each query method (one per
//!   metric family) looks its filter up in that family's cache; on a miss it adds up the
//!   tallies the filter selects (a few dozen to a few thousand small sorted lists, never the
//!   rows, except for a month cut by a time bound) and derives the statistic in plain Rust, then
//!   stores the result. The first query after an append is therefore as fast as any
//!   uncached query. Every append bumps the
//!   [`Stats::generation`] and clears all caches, so an answer never mixes data from before and
//!   after an append. A cache holds at most [`CACHE_CAPACITY`] filters per family; when full it
//!   is emptied (simple, and filters are few in practice).
//! - Queries take `&self` (the caches sit behind a mutex), appends `&mut self`: a service keeps
//!   a `Stats` behind a read-write lock, answers queries under the read lock and appends under
//!   the write lock. Results are shared as `Arc`s and stay valid after later appends.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::buckets::{Catalog, Class};
use crate::error::AnalyticsError;
use crate::filter::StatsFilter;
use crate::frames::Tables;
use crate::furnishings::{self, FurnishingStats};
use crate::general::{self, ScoreStats, SeatStats, SpaceUseStats};
use crate::ingest;
use crate::input::Corpus;
use crate::stored::StoredBucket;
use crate::tally::{self, Part, Tally};
use crate::weapons::{self, WeaponStats};

/// Filters remembered per metric family before the cache is emptied.
pub const CACHE_CAPACITY: usize = 256;

/// The histogram bucket width used by [`Stats::all`].
pub const DEFAULT_BUCKET_WIDTH: u32 = 10;

/// Every metric family for one filter.
#[derive(Clone, Debug, PartialEq)]
pub struct AllStats {
    pub furnishings: Arc<FurnishingStats>,
    pub weapons: Arc<WeaponStats>,
    pub seats: Arc<SeatStats>,
    pub scores: Arc<ScoreStats>,
    pub spaces: Arc<SpaceUseStats>,
}

#[derive(Debug, Default)]
struct Cache {
    furnishings: HashMap<StatsFilter, Arc<FurnishingStats>>,
    weapons: HashMap<StatsFilter, Arc<WeaponStats>>,
    seats: HashMap<StatsFilter, Arc<SeatStats>>,
    scores: HashMap<(StatsFilter, u32), Arc<ScoreStats>>,
    spaces: HashMap<StatsFilter, Arc<SpaceUseStats>>,
}

impl Cache {
    fn clear(&mut self) {
        *self = Cache::default();
    }
}

/// Strategy statistics over a growing corpus of complete games.
#[derive(Debug)]
pub struct Stats {
    /// Whether the frames hold the games' rows: `false` for statistics built from stored
    /// buckets ([`Stats::from_buckets`]), which answer filters that select whole buckets only.
    rows: bool,
    tables: Tables,
    catalog: Catalog,
    generation: u64,
    cache: Mutex<Cache>,
}

impl Stats {
    /// No games yet.
    pub fn new() -> Result<Stats, AnalyticsError> {
        Ok(Stats {
            rows: true,
            tables: Tables::new()?,
            catalog: Catalog::default(),
            generation: 0,
            cache: Mutex::new(Cache::default()),
        })
    }

    /// The statistics of a corpus (validated as in [`Corpus::validate`]).
    pub fn from_corpus(corpus: &Corpus) -> Result<Stats, AnalyticsError> {
        let mut stats = Stats::new()?;
        stats.add_games(corpus)?;
        Ok(stats)
    }

    /// Statistics answered from the tallies of stored buckets alone (see [`crate::stored`]):
    /// a filter that needs the games' rows ([`StatsFilter::needs_rows`]) is refused with
    /// [`AnalyticsError::NeedsRows`], and no game can be added.
    pub fn from_buckets(buckets: Vec<StoredBucket>) -> Result<Stats, AnalyticsError> {
        let mut stats = Stats::new()?;
        stats.rows = false;
        stats.catalog = Catalog::from_buckets(buckets);
        Ok(stats)
    }

    /// Every bucket's tally, to be kept by a store (see [`crate::stored`]).
    pub fn stored_buckets(&self) -> Vec<StoredBucket> {
        self.catalog.stored_buckets()
    }

    /// Whether these statistics hold the games' rows (and so answer every filter).
    pub fn holds_rows(&self) -> bool {
        self.rows
    }

    /// Player-games counted, from the tallies (equal to [`Stats::player_games`] when the rows
    /// are held).
    pub fn player_games_counted(&self) -> u64 {
        self.catalog.stored_buckets().iter().map(StoredBucket::player_games).sum()
    }

    /// The tallies `filter` adds up; refused for a filter that needs rows these statistics do
    /// not hold.
    fn gather(&self, filter: &StatsFilter, parts: &[Part]) -> Result<Vec<(Class, Cow<'_, Tally>)>, AnalyticsError> {
        if !self.rows && filter.needs_rows() {
            return Err(AnalyticsError::NeedsRows);
        }
        self.catalog.gather(&self.tables, filter, parts)
    }

    /// Adds a batch of whole games (none of which may have been added before) and invalidates
    /// every cached result. On error nothing is added.
    pub fn add_games(&mut self, corpus: &Corpus) -> Result<(), AnalyticsError> {
        if !self.rows {
            return Err(AnalyticsError::NeedsRows);
        }
        let ends = self
            .tables
            .ends()
            .ok_or_else(|| AnalyticsError::InvalidInput("more rows than the index type holds".into()))?;
        let batch = ingest::translate(corpus, &self.catalog, ends)?;
        if !batch.new.games.is_empty() {
            let tallies = tally::compute(&batch.rows, &ingest::COUNTED_BY_POLARS, batch.counted)?;
            // Nothing below fails on well-formed frames of the same schema; a failure here would
            // leave the frames as they were before the failing table.
            self.tables.append(batch.rows)?;
            self.catalog.commit(batch.new, tallies);
        }
        self.generation += 1;
        self.lock().clear();
        Ok(())
    }

    /// Number of successful appends so far (changes whenever results may change).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn games(&self) -> usize {
        self.catalog.games()
    }

    pub fn player_games(&self) -> usize {
        self.tables.player_games()
    }

    /// Estimated heap size of the frames holding the corpus, the tallies and the per-game
    /// index (not of the cached results).
    pub fn estimated_bytes(&self) -> usize {
        self.tables.estimated_bytes() + self.catalog.estimated_bytes()
    }

    /// Forgets every cached result (the next queries recompute).
    pub fn clear_cache(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> MutexGuard<'_, Cache> {
        // A panic while holding the lock cannot leave a cache half-written (inserts are single
        // map operations), so a poisoned cache is still usable.
        self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn cached<K, V>(
        &self,
        map: fn(&mut Cache) -> &mut HashMap<K, Arc<V>>,
        key: K,
        compute: impl FnOnce() -> Result<V, AnalyticsError>,
    ) -> Result<Arc<V>, AnalyticsError>
    where
        K: Hash + Eq,
    {
        if let Some(hit) = map(&mut self.lock()).get(&key) {
            return Ok(Arc::clone(hit));
        }
        // Computed without the lock: concurrent queries do not wait for each other.
        let value = Arc::new(compute()?);
        let mut cache = self.lock();
        let m = map(&mut cache);
        if m.len() >= CACHE_CAPACITY {
            m.clear();
        }
        m.insert(key, Arc::clone(&value));
        Ok(value)
    }

    /// Per furnishing tile ([`crate::furnishings`]).
    pub fn furnishings(&self, filter: &StatsFilter) -> Result<Arc<FurnishingStats>, AnalyticsError> {
        self.cached(|c| &mut c.furnishings, filter.clone(), || self.compute_furnishings(filter))
    }

    /// Weapon classes, strengths, expeditions and loot ([`crate::weapons`]).
    pub fn weapons(&self, filter: &StatsFilter) -> Result<Arc<WeaponStats>, AnalyticsError> {
        self.cached(|c| &mut c.weapons, filter.clone(), || self.compute_weapons(filter))
    }

    /// Win rate by seat and first-player advantage ([`crate::general`]).
    pub fn seats(&self, filter: &StatsFilter) -> Result<Arc<SeatStats>, AnalyticsError> {
        self.cached(|c| &mut c.seats, filter.clone(), || self.compute_seats(filter))
    }

    /// Score quantiles and histogram with buckets of `bucket_width` points (0 counts as 1).
    pub fn scores(&self, filter: &StatsFilter, bucket_width: u32) -> Result<Arc<ScoreStats>, AnalyticsError> {
        self.cached(|c| &mut c.scores, (filter.clone(), bucket_width), || self.compute_scores(filter, bucket_width))
    }

    /// Action-space use by round ([`crate::general`]).
    pub fn spaces(&self, filter: &StatsFilter) -> Result<Arc<SpaceUseStats>, AnalyticsError> {
        self.cached(|c| &mut c.spaces, filter.clone(), || self.compute_spaces(filter))
    }

    /// Every family (histogram width [`DEFAULT_BUCKET_WIDTH`]), through the caches.
    pub fn all(&self, filter: &StatsFilter) -> Result<AllStats, AnalyticsError> {
        Ok(AllStats {
            furnishings: self.furnishings(filter)?,
            weapons: self.weapons(filter)?,
            seats: self.seats(filter)?,
            scores: self.scores(filter, DEFAULT_BUCKET_WIDTH)?,
            spaces: self.spaces(filter)?,
        })
    }

    /// [`Stats::furnishings`] without the cache.
    pub fn compute_furnishings(&self, filter: &StatsFilter) -> Result<FurnishingStats, AnalyticsError> {
        let tallies = self.gather(filter, furnishings::PARTS)?;
        Ok(furnishings::compute(&tallies, filter.min_sample))
    }

    /// [`Stats::weapons`] without the cache.
    pub fn compute_weapons(&self, filter: &StatsFilter) -> Result<WeaponStats, AnalyticsError> {
        let tallies = self.gather(filter, weapons::PARTS)?;
        Ok(weapons::compute(&tallies, filter.min_sample))
    }

    /// [`Stats::seats`] without the cache.
    pub fn compute_seats(&self, filter: &StatsFilter) -> Result<SeatStats, AnalyticsError> {
        let tallies = self.gather(filter, &[Part::Seats])?;
        Ok(general::seats(&tallies, filter.min_sample))
    }

    /// [`Stats::scores`] without the cache.
    pub fn compute_scores(&self, filter: &StatsFilter, bucket_width: u32) -> Result<ScoreStats, AnalyticsError> {
        let tallies = self.gather(filter, &[Part::Scores])?;
        Ok(general::scores(&tallies, bucket_width))
    }

    /// [`Stats::spaces`] without the cache.
    pub fn compute_spaces(&self, filter: &StatsFilter) -> Result<SpaceUseStats, AnalyticsError> {
        let tallies = self.gather(filter, &[Part::Spaces])?;
        Ok(general::spaces(&tallies))
    }
}
