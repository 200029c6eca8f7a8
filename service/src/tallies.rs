//! The statistics' tallies kept in the store — Caverna's statistics families and the outcome
//! statistics of Village and Above and Below — so that every process on a database answers
//! from the same counts and none has to read every game before it answers.
//!
//! **Counting** ([`catch_up`]) is an idempotent step that any writer may run at any time: it
//! asks the store for the complete games not counted yet, computes their bucket tallies
//! ([`chronicle_analytics::stored`], [`chronicle_analytics::outcomes::OutcomeBucket`]) and adds them to the stored ones in one transaction that
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
//! however many games are stored) into statistics that answer every Caverna filter selecting
//! whole buckets ([`chronicle_analytics::StatsFilter::needs_rows`]) and every outcome report
//! (whose filters always select whole buckets).

use std::collections::BTreeMap;

use chronicle_analytics::outcomes::{report_from_buckets, OutcomeBucket, OutcomeCorpus, OutcomeFilter, OutcomeReport};
use chronicle_analytics::ratings::player_key;
use chronicle_analytics::{played_month, Corpus, Stats, StoredBucket};
use chronicle_game::GameKind;
use chronicle_store::{Backend, Counting, GameHead, Store, TallyState};

use crate::outcome_corpora::{has_outcomes, outcome};
use crate::{blocking, internal, stats_corpus, ServiceError};

/// What `stat_tallies` holds, as `stat_state.tally_format` records it: 1 — Caverna's buckets
/// only, keys without a game; 2 — every game's buckets, each key led by its game's id; 3 — and
/// each counted game's month in `stat_counted`. Raised
/// whenever a tally's text changes ([`chronicle_analytics::TALLY_FORMAT`],
/// [`chronicle_analytics::outcomes::OUTCOME_TALLY_FORMAT`]): a store holding another is
/// counted again.
pub const STORE_FORMAT: i64 = 3;

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

/// The games with tallies: Caverna's (its statistics families) and every game with outcome
/// statistics. Every complete game is *counted* (`stat_counted`), those of other games with no
/// tally, so that the rating models, computed over the counted games, cover every game.
fn tallied(kind: GameKind) -> bool {
    kind == GameKind::Caverna || has_outcomes(kind)
}

/// One stored bucket: Caverna's, or another game's outcome bucket.
#[derive(Clone, Debug, PartialEq)]
enum Tally {
    Caverna(StoredBucket),
    Outcome(GameKind, OutcomeBucket),
}

type CavernaKey = (Option<i64>, u8, bool, Option<String>, Option<String>);
type OutcomeKey = (Option<String>, u8, bool);

impl Tally {
    /// The bucket's key as stored: the game's id, `:`, then the bucket in JSON — Caverna's
    /// `[month, players, full set, tournament, source]`, another game's `[source, players,
    /// synthetic]`.
    fn key(&self) -> String {
        match self {
            Tally::Caverna(b) => {
                let parts = serde_json::json!([b.month, b.player_count, b.full_set, b.tournament, b.source]);
                format!("{}:{parts}", GameKind::Caverna.id())
            }
            Tally::Outcome(kind, b) => {
                format!("{}:{}", kind.id(), serde_json::json!([b.source, b.players, b.synthetic]))
            }
        }
    }

    fn text(&self) -> String {
        match self {
            Tally::Caverna(b) => b.tally_text(),
            Tally::Outcome(_, b) => b.tally_text(),
        }
    }

    /// A stored row read back; a damaged one is an error, never an empty bucket.
    fn read(key: &str, text: &str) -> Result<Tally, String> {
        let bad = |e: &dyn std::fmt::Display| format!("bucket key {key:?}: {e}");
        let (game, parts) = key.split_once(':').ok_or_else(|| bad(&"no game"))?;
        let kind = GameKind::from_id(game).filter(|&k| tallied(k)).ok_or_else(|| bad(&"not a tallied game"))?;
        if kind == GameKind::Caverna {
            let (month, players, full, tournament, source): CavernaKey =
                serde_json::from_str(parts).map_err(|e| bad(&e))?;
            let b = StoredBucket::with_tally_text(month, players, full, tournament, source, text);
            return b.map(Tally::Caverna).map_err(|e| e.to_string());
        }
        let (source, players, synthetic): OutcomeKey = serde_json::from_str(parts).map_err(|e| bad(&e))?;
        OutcomeBucket::with_tally_text(source, players, synthetic, text).map(|b| Tally::Outcome(kind, b))
    }

    /// Adds another tally of the same bucket.
    fn add(&mut self, other: &Tally) -> Result<(), String> {
        match (self, other) {
            (Tally::Caverna(a), Tally::Caverna(b)) => a.add(b),
            (Tally::Outcome(_, a), Tally::Outcome(_, b)) => a.add(b),
            _ => return Err("two games' tallies under one key".to_owned()),
        }
        Ok(())
    }
}

/// Adds two tallies of one bucket (their texts): the store's merge step.
fn merge(key: &str, stored: &str, new: &str) -> Result<String, String> {
    let mut sum = Tally::read(key, stored)?;
    sum.add(&Tally::read(key, new)?)?;
    Ok(sum.text())
}

/// `(identity key, game)` of every seat of the complete Caverna games among `games`, each pair
/// once (the keys as the logs give them; merged identities are resolved when a query asks).
fn seats(games: &[GameHead]) -> Vec<(String, i64)> {
    let caverna = games
        .iter()
        .filter(|g| g.record.game == Some(GameKind::Caverna) && g.record.status == chronicle_game::Status::Complete);
    let pairs = caverna.flat_map(|g| g.record.players.iter().map(|p| (player_key(p.id.as_deref(), &p.name), g.id)));
    let unique: std::collections::BTreeSet<(String, i64)> = pairs.collect();
    unique.into_iter().collect()
}

/// `(game, month)` of the complete Caverna games among `games` with a readable `played_at`.
fn months(games: &[GameHead]) -> Vec<(i64, i64)> {
    let caverna = games
        .iter()
        .filter(|g| g.record.game == Some(GameKind::Caverna) && g.record.status == chronicle_game::Status::Complete);
    caverna.filter_map(|g| g.record.meta.played_at.as_deref().and_then(played_month).map(|m| (g.id, m))).collect()
}

/// The bucket tallies of some stored games (complete games of a tallied game; others add
/// nothing).
async fn tally(games: Vec<GameHead>) -> Result<Vec<Tally>, ServiceError> {
    blocking(move || {
        let mut corpus = Corpus::new();
        let mut outcomes: BTreeMap<GameKind, OutcomeCorpus> = BTreeMap::new();
        for g in &games {
            stats_corpus::add_game(&mut corpus, g.id, None, &g.record).map_err(internal)?;
            if let Some((kind, game)) = outcome(g.id, &g.record).map_err(internal)? {
                outcomes.entry(kind).or_insert_with(|| outcome_corpus(kind)).add(&game);
            }
        }
        let stats = Stats::from_corpus(&corpus).map_err(crate::stats_error)?;
        let caverna = stats.stored_buckets().into_iter().map(Tally::Caverna);
        let others = outcomes.into_iter().flat_map(|(k, c)| c.buckets().into_iter().map(move |b| Tally::Outcome(k, b)));
        Ok(caverna.chain(others).collect())
    })
    .await?
}

/// An empty outcome corpus of `kind`, with its spec's score rows and counters.
fn outcome_corpus(kind: GameKind) -> OutcomeCorpus {
    let spec = kind.spec();
    let rows: Vec<&str> = spec.score_rows.iter().map(|r| r.id).collect();
    let counters: Vec<&str> = spec.counters.iter().map(|c| c.id).collect();
    OutcomeCorpus::new(&rows, &counters)
}

fn rows(buckets: impl IntoIterator<Item = Tally>) -> Vec<(String, String)> {
    buckets.into_iter().map(|b| (b.key(), b.text())).collect()
}

/// Brings the stored tallies up to date with the stored games (see the module documentation).
/// Loops: one transaction per [`BATCH`] of uncounted games (bounded by the games stored), at
/// most [`PLANS`] plans.
pub async fn catch_up(store: &Backend) -> Result<Counted, ServiceError> {
    let mut done = Counted::default();
    for _ in 0..PLANS {
        let state = store.tally_state().await?;
        if state.needs_recount(STORE_FORMAT) {
            if let Some(games) = recount(store, &state).await? {
                done = Counted { games: done.games + games, recounted: true };
            }
            continue;
        }
        let (games, finished) = add_new(store, &state).await?;
        done.games += games;
        if finished {
            return Ok(done);
        }
    }
    Err(internal("the statistics tallies kept changing while they were counted"))
}

/// Counts the games not counted yet at `state`, game by game: the games this call counted, and
/// whether it finished (`false` when another process changed the tallies first: plan again).
async fn add_new(store: &Backend, state: &TallyState) -> Result<(usize, bool), ServiceError> {
    let mut games = 0;
    for &kind in GameKind::ALL {
        loop {
            let ids = store.uncounted_games(kind.id(), BATCH).await?;
            if ids.is_empty() {
                break;
            }
            let stored = store.games_with_facts(&ids).await?;
            let (seats, months) = (seats(&stored), months(&stored));
            let counting = Counting { tallies: rows(tally(stored).await?), counted: ids, seats, months };
            if !store.add_tallies(state, &counting, &merge).await? {
                return Ok((games, false));
            }
            games += counting.counted.len();
        }
    }
    Ok((games, true))
}

/// Counts every complete game again and replaces the tallies; `None` when verdicts were
/// rewritten meanwhile (plan again). Holds the tallies (not the games) of every bucket.
async fn recount(store: &Backend, state: &TallyState) -> Result<Option<usize>, ServiceError> {
    let mut sums: BTreeMap<String, Tally> = BTreeMap::new();
    let (mut counted, mut all_seats, mut all_months) = (Vec::new(), Vec::new(), Vec::new());
    let mut after = 0;
    loop {
        let batch = store.complete_records(after, BATCH).await?;
        let Some(last) = batch.last().map(|g| g.id) else { break };
        after = last;
        let batch: Vec<GameHead> = batch.into_iter().filter(|g| g.record.game.is_some()).collect();
        counted.extend(batch.iter().map(|g| g.id));
        all_seats.extend(seats(&batch));
        all_months.extend(months(&batch));
        for b in tally(batch).await? {
            match sums.entry(b.key()) {
                std::collections::btree_map::Entry::Occupied(mut e) => e.get_mut().add(&b).map_err(internal)?,
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(b);
                }
            }
        }
    }
    let games = counted.len();
    let counting = Counting { counted, tallies: rows(sums.into_values()), seats: all_seats, months: all_months };
    let replaced = store.replace_tallies(state, STORE_FORMAT, &counting).await?;
    Ok(replaced.then_some(games))
}

/// The stored tallies a process holds, and the counting transaction they are current to.
#[derive(Debug, Default)]
pub struct Held {
    /// Whether the tallies were read at least once.
    read: bool,
    version: i64,
    buckets: BTreeMap<String, Tally>,
}

impl Held {
    /// The counting transaction the held tallies are current to (0: none read).
    pub fn version(&self) -> usize {
        usize::try_from(self.version).unwrap_or(0)
    }
}

/// Statistics over every held tally: Caverna's families for every filter that selects whole
/// buckets, and every outcome report.
#[derive(Debug)]
pub struct Tallied {
    pub caverna: Stats,
    /// The Caverna buckets `caverna` was built from (for filters that cut a month:
    /// [`crate::Service`] replaces the cut months' buckets with those of the games within).
    pub caverna_buckets: Vec<StoredBucket>,
    outcomes: BTreeMap<GameKind, Vec<OutcomeBucket>>,
}

impl Tallied {
    /// The outcome statistics of `kind` over `filter` (`None` for a game without them).
    pub fn outcomes(&self, kind: GameKind, filter: &OutcomeFilter) -> Option<OutcomeReport> {
        has_outcomes(kind).then(|| {
            let spec = kind.spec();
            let rows: Vec<String> = spec.score_rows.iter().map(|r| r.id.to_owned()).collect();
            let counters: Vec<String> = spec.counters.iter().map(|c| c.id.to_owned()).collect();
            let buckets = self.outcomes.get(&kind).map(Vec::as_slice).unwrap_or_default();
            report_from_buckets(&rows, &counters, buckets, filter)
        })
    }
}

/// Reads the tallies written since `held` was read (all of them after every game was counted
/// again) and returns statistics over every held tally; `None` when nothing changed since the
/// last read. Reads as many rows as buckets changed, at most one per bucket.
pub async fn read(store: &Backend, held: &mut Held) -> Result<Option<Tallied>, ServiceError> {
    let fresh = store.tallies_after(held.version).await?;
    if held.read && !fresh.whole && fresh.rows.is_empty() {
        return Ok(None);
    }
    if fresh.whole {
        held.buckets.clear();
    }
    for (key, tally) in &fresh.rows {
        held.buckets.insert(key.clone(), Tally::read(key, tally).map_err(internal)?);
    }
    held.version = fresh.version;
    held.read = true;
    let mut caverna = Vec::new();
    let mut outcomes: BTreeMap<GameKind, Vec<OutcomeBucket>> = BTreeMap::new();
    for b in held.buckets.values() {
        match b {
            Tally::Caverna(b) => caverna.push(b.clone()),
            Tally::Outcome(kind, b) => outcomes.entry(*kind).or_default().push(b.clone()),
        }
    }
    let kept = caverna.clone();
    let stats = blocking(move || Stats::from_buckets(caverna).map_err(crate::stats_error)).await??;
    Ok(Some(Tallied { caverna: stats, caverna_buckets: kept, outcomes }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_key_reads_back() {
        let b = StoredBucket::with_tally_text(Some(612), 4, true, Some("Open \"cup\"".into()), None, "").unwrap();
        let t = Tally::Caverna(b);
        assert_eq!(Tally::read(&t.key(), &t.text()).unwrap(), t);
        let corpus = outcome_corpus(GameKind::Village);
        let o = OutcomeBucket::with_tally_text(
            Some("club:one".into()),
            3,
            true,
            &corpus.buckets().first().map_or_else(
                || "{\"games\":0,\"counters\":{},\"sources\":{},\"rows\":{},\"seats\":{},\"scores\":{}}".to_owned(),
                OutcomeBucket::tally_text,
            ),
        )
        .unwrap();
        let t = Tally::Outcome(GameKind::Village, o);
        assert!(t.key().starts_with("village:"), "{}", t.key());
        assert_eq!(Tally::read(&t.key(), &t.text()).unwrap(), t);
    }

    #[test]
    fn a_damaged_stored_row_is_an_error() {
        assert!(Tally::read("not json", "").is_err());
        assert!(Tally::read("caverna:not json", "").is_err());
        assert!(Tally::read("[1,4,true,null,null]", "").is_err(), "a key of the first format has no game");
        assert!(Tally::read("caverna:[1,4,true,null,null]", "0:x").is_err());
        assert!(Tally::read("village:[null,2,false]", "{").is_err());
        assert!(merge("caverna:[1,4,true,null,null]", "0:1,1,0,5,25", "0:").is_err());
    }

    /// A tally text changed without a new store format would be read wrongly by stores
    /// counted before: the formats move together.
    #[test]
    fn the_store_format_moves_with_the_tally_formats() {
        use chronicle_analytics::outcomes::OUTCOME_TALLY_FORMAT;
        use chronicle_analytics::TALLY_FORMAT;
        assert_eq!((STORE_FORMAT, TALLY_FORMAT, OUTCOME_TALLY_FORMAT), (3, 1, 1), "raise STORE_FORMAT too");
    }
}
