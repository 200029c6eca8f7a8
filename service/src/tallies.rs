//! The Caverna statistics' tallies kept in the store, so that every process on a database
//! answers from the same counts and none has to read every game before it answers.
//!
//! **Counting** ([`catch_up`]) is an idempotent step that any writer may run at any time: it
//! asks the store for the complete Caverna games not counted yet, computes their bucket tallies
//! ([`chronicle_analytics::stored`]) and adds them to the stored ones in one transaction that
//! also records the games as counted. Two processes counting at once cannot count a game twice
//! (the store refuses the second transaction, which then plans again). When stored verdicts
//! were rewritten (`chronicle reverify`), or the tallies' text format changed, every game is
//! counted again and the tallies replaced in one transaction; until it commits, readers see the
//! previous tallies whole.
//!
//! Who counts: every `chronicle serve` on a writable store, at start and after each change it
//! learns of (its own uploads included), and `chronicle reverify` when it finishes. Not
//! `chronicle import`: counting costs about twice the replay of the same games, and an import
//! is measured by its speed; the first server start after a bulk import counts its games once
//! (docs/scaling.md). A server on a read-only standby does not count; it reads the tallies its
//! primary's processes wrote.
//!
//! **Reading** ([`read`]) loads the stored rows (one per bucket: a few dozen to a few thousand,
//! however many games are stored) into statistics that answer every filter selecting whole
//! buckets ([`chronicle_analytics::StatsFilter::needs_rows`]).

use std::collections::BTreeMap;

use chronicle_analytics::{Corpus, Stats, StoredBucket, TALLY_FORMAT};
use chronicle_game::GameKind;
use chronicle_store::{Backend, GameHead, Store, TallyState};

use crate::{blocking, internal, stats_corpus, ServiceError};

/// Games counted per transaction (and held in memory at once while counting).
pub const BATCH: i64 = 2_000;

/// Times a count is planned again after another process changed the tallies first; each
/// time follows a commit by someone else, so the bound is reached only under a storm of
/// concurrent rewrites.
const PLANS: usize = 20;

/// What one [`catch_up`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// Games counted by this call.
    pub games: usize,
    /// Whether every game was counted again (verdicts rewritten, or a new text format).
    pub recounted: bool,
}

/// A bucket's key as stored: `[month, players, full set, tournament, source]` in JSON.
fn key(b: &StoredBucket) -> String {
    serde_json::json!([b.month, b.player_count, b.full_set, b.tournament, b.source]).to_string()
}

type KeyParts = (Option<i64>, u8, bool, Option<String>, Option<String>);

/// A stored row read back.
fn bucket(key: &str, tally: &str) -> Result<StoredBucket, String> {
    let (month, players, full, tournament, source): KeyParts =
        serde_json::from_str(key).map_err(|e| format!("bucket key {key:?}: {e}"))?;
    StoredBucket::with_tally_text(month, players, full, tournament, source, tally).map_err(|e| e.to_string())
}

/// Adds two tallies of one bucket (their texts).
fn merge(stored: &str, new: &str) -> Result<String, String> {
    let mut sum = StoredBucket::with_tally_text(None, 0, false, None, None, stored).map_err(|e| e.to_string())?;
    let add = StoredBucket::with_tally_text(None, 0, false, None, None, new).map_err(|e| e.to_string())?;
    sum.add(&add);
    Ok(sum.tally_text())
}

/// The bucket tallies of some stored games (complete Caverna games; others add nothing).
async fn tally(games: Vec<GameHead>) -> Result<Vec<StoredBucket>, ServiceError> {
    blocking(move || {
        let mut corpus = Corpus::new();
        for g in &games {
            stats_corpus::add_game(&mut corpus, g.id, None, &g.record).map_err(internal)?;
        }
        let stats = Stats::from_corpus(&corpus).map_err(crate::stats_error)?;
        Ok(stats.stored_buckets())
    })
    .await?
}

fn rows(buckets: impl IntoIterator<Item = StoredBucket>) -> Vec<(String, String)> {
    buckets.into_iter().map(|b| (key(&b), b.tally_text())).collect()
}

/// Brings the stored tallies up to date with the stored games (see the module documentation).
/// Loops: one transaction per [`BATCH`] of uncounted games (bounded by the games stored), at
/// most [`PLANS`] plans.
pub async fn catch_up(store: &Backend) -> Result<Counted, ServiceError> {
    let mut done = Counted::default();
    for _ in 0..PLANS {
        let state = store.tally_state().await?;
        if state.needs_recount(TALLY_FORMAT) {
            if let Some(games) = recount(store, &state).await? {
                done = Counted { games: done.games + games, recounted: true };
            }
            continue;
        }
        match add_new(store, &state).await? {
            Some(games) => return Ok(Counted { games: done.games + games, ..done }),
            None => continue,
        }
    }
    Err(internal("the statistics tallies kept changing while they were counted"))
}

/// Counts the games not counted yet at `state`; `None` when another process changed the
/// tallies first (plan again).
async fn add_new(store: &Backend, state: &TallyState) -> Result<Option<usize>, ServiceError> {
    let mut games = 0;
    loop {
        let ids = store.uncounted_games(GameKind::Caverna.id(), BATCH).await?;
        if ids.is_empty() {
            return Ok(Some(games));
        }
        let tallies = rows(tally(store.games_with_facts(&ids).await?).await?);
        if !store.add_tallies(state, &ids, &tallies, &merge).await? {
            return Ok(None);
        }
        games += ids.len();
    }
}

/// Counts every complete game again and replaces the tallies; `None` when verdicts were
/// rewritten meanwhile (plan again). Holds the tallies (not the games) of every bucket.
async fn recount(store: &Backend, state: &TallyState) -> Result<Option<usize>, ServiceError> {
    let mut sums: BTreeMap<String, StoredBucket> = BTreeMap::new();
    let mut counted = Vec::new();
    let mut after = 0;
    loop {
        let batch = store.complete_records(after, BATCH).await?;
        let Some(last) = batch.last().map(|g| g.id) else { break };
        after = last;
        let batch: Vec<GameHead> = batch.into_iter().filter(|g| g.record.game == Some(GameKind::Caverna)).collect();
        counted.extend(batch.iter().map(|g| g.id));
        for b in tally(batch).await? {
            match sums.entry(key(&b)) {
                std::collections::btree_map::Entry::Occupied(mut e) => e.get_mut().add(&b),
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(b);
                }
            }
        }
    }
    let games = counted.len();
    let replaced = store.replace_tallies(state, TALLY_FORMAT, &counted, &rows(sums.into_values())).await?;
    Ok(replaced.then_some(games))
}

/// The stored tallies a process holds, and the counting transaction they are current to.
#[derive(Debug, Default)]
pub struct Held {
    /// Whether the tallies were read at least once.
    read: bool,
    version: i64,
    buckets: BTreeMap<String, StoredBucket>,
}

impl Held {
    /// The counting transaction the held tallies are current to (0: none read).
    pub fn version(&self) -> usize {
        usize::try_from(self.version).unwrap_or(0)
    }
}

/// Reads the tallies written since `held` was read (all of them after every game was counted
/// again) and returns statistics over every held tally (every filter that selects whole
/// buckets); `None` when nothing changed since the last read. Reads as many rows as buckets
/// changed, at most one per bucket.
pub async fn read(store: &Backend, held: &mut Held) -> Result<Option<Stats>, ServiceError> {
    let fresh = store.tallies_after(held.version).await?;
    if held.read && !fresh.whole && fresh.rows.is_empty() {
        return Ok(None);
    }
    if fresh.whole {
        held.buckets.clear();
    }
    for (key, tally) in &fresh.rows {
        held.buckets.insert(key.clone(), bucket(key, tally).map_err(internal)?);
    }
    held.version = fresh.version;
    held.read = true;
    let buckets: Vec<StoredBucket> = held.buckets.values().cloned().collect();
    blocking(move || Stats::from_buckets(buckets).map_err(crate::stats_error)).await?.map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_key_reads_back() {
        let b = StoredBucket::with_tally_text(Some(612), 4, true, Some("Open \"cup\"".into()), None, "").unwrap();
        let back = bucket(&key(&b), &b.tally_text()).unwrap();
        assert_eq!(back, b);
    }

    #[test]
    fn a_damaged_stored_row_is_an_error() {
        assert!(bucket("not json", "").is_err());
        assert!(bucket("[1,4,true,null,null]", "0:x").is_err());
        assert!(merge("0:1,1,0,5,25", "0:").is_err());
    }
}
