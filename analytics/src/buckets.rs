//! Buckets of games with their tallies, and which tallies a filter adds up.
//!
//! Every filter condition is on the game: its player count, furnishing set, tournament and
//! source (its [`Class`]), when it was played and who uploaded it. Games are therefore grouped
//! in **buckets** of one class
//! and one calendar month (UTC) of `played_at` (or no readable date), and each bucket keeps the
//! [`Tally`] of its games, updated when games are added. Each class also keeps the tally of
//! all its games, dated or not.
//!
//! A query adds tallies:
//!
//! - without a time bound, those of the classes the filter matches (a few dozen at most for
//!   the player counts × sets × labels that occur);
//! - with a time bound, those of the matching buckets of every month wholly inside the bounds;
//!   a month a bound cuts (a bound that is not the first instant of a month) is counted from
//!   rows, gathered and tallied with the same polars group-bys as a new batch: the rows of its
//!   games inside the bounds, or, when those are the majority, the bucket's tally minus that of
//!   the games outside. At most two months are cut, so this costs a scan of at most one month
//!   of rows, never of the corpus.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

use polars::prelude::IdxSize;

use crate::calendar::{month_of, month_start};
use crate::error::AnalyticsError;
use crate::filter::StatsFilter;
use crate::frames::{Starts, Tables};
use crate::input::FurnishingSet;
use crate::stored::StoredBucket;
use crate::tally::{self, Part, Tally};

/// What a filter can select a game by, apart from when it was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Class {
    pub(crate) pc: u8,
    pub(crate) full: bool,
    /// Label codes (see [`Catalog::label`]) of the tournament and of `meta.source` (a few
    /// values: the simulator's labels).
    pub(crate) tournament: Option<u32>,
    pub(crate) source: Option<u32>,
}

/// Which of a game's texts a label code stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Label {
    Tournament,
    Source,
    Uploader,
    Player,
}

/// Tallies to add up, each with the class of its games.
pub(crate) type Gathered<'a> = [(Class, Cow<'a, Tally>)];

/// A bucket's calendar month (`None`: no readable `played_at`) and class.
pub(crate) type BucketKey = (Option<i64>, Class);

#[derive(Debug)]
struct Bucket {
    key: BucketKey,
    /// Game numbers (rows of the game frame), ascending.
    games: Vec<IdxSize>,
    tally: Tally,
}

/// A batch translated but not yet added: the names and buckets it introduces and its games.
#[derive(Debug, Default)]
pub(crate) struct NewGames {
    /// Labels new to the catalog, coded from the catalog's count on.
    pub(crate) labels: Vec<(Label, String)>,
    /// Buckets new to the catalog, numbered from the catalog's count on.
    pub(crate) buckets: Vec<BucketKey>,
    /// Per game, in row order.
    pub(crate) games: Vec<NewGame>,
}

/// A game of a batch: its id, bucket, `played_at` (seconds), uploader (label code) and where
/// its rows start.
#[derive(Debug)]
pub(crate) struct NewGame {
    pub(crate) id: i64,
    pub(crate) bucket: u32,
    pub(crate) played: Option<i64>,
    pub(crate) uploader: Option<u32>,
    /// The label codes of its seats' player keys.
    pub(crate) players: Vec<u32>,
    pub(crate) starts: Starts,
}

/// Everything about the stored games that is not in the frames.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    labels: HashMap<(Label, String), u32>,
    game_ids: HashSet<i64>,
    /// Per game number: `played_at` in seconds, uploader and where its rows start. Uploaders
    /// are many, so they are not part of a class: a filter by uploader selects games one by one.
    played: Vec<Option<i64>>,
    uploaders: Vec<Option<u32>>,
    /// Per game number, the player codes of its seats: `players[player_at[g]..player_at[g + 1]]`.
    players: Vec<u32>,
    player_at: Vec<u32>,
    starts: Vec<Starts>,
    ids: HashMap<BucketKey, u32>,
    buckets: Vec<Bucket>,
    /// Dated buckets by month.
    months: BTreeMap<i64, Vec<u32>>,
    /// Every game of a class.
    classes: BTreeMap<Class, Tally>,
}

impl Catalog {
    pub(crate) fn games(&self) -> usize {
        self.played.len()
    }

    pub(crate) fn has_game(&self, id: i64) -> bool {
        self.game_ids.contains(&id)
    }

    pub(crate) fn label(&self, kind: Label, text: &str) -> Option<u32> {
        self.labels.get(&(kind, text.to_owned())).copied()
    }

    /// The codes of the labels of `kind` whose text satisfies `keep`.
    pub(crate) fn labels_where(&self, kind: Label, keep: impl Fn(&str) -> bool) -> HashSet<u32> {
        self.labels.iter().filter(|((k, text), _)| *k == kind && keep(text)).map(|(_, &code)| code).collect()
    }

    pub(crate) fn label_count(&self) -> usize {
        self.labels.len()
    }

    pub(crate) fn bucket(&self, key: &BucketKey) -> Option<u32> {
        self.ids.get(key).copied()
    }

    pub(crate) fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// Heap bytes of the tallies and game references (estimated).
    pub(crate) fn estimated_bytes(&self) -> usize {
        let tallies: usize = self.buckets.iter().map(|b| b.tally.bytes() + b.games.capacity() * 4).sum::<usize>()
            + self.classes.values().map(Tally::bytes).sum::<usize>();
        let games = self.played.capacity() * std::mem::size_of::<Option<i64>>()
            + self.uploaders.capacity() * std::mem::size_of::<Option<u32>>()
            + (self.players.capacity() + self.player_at.capacity()) * 4
            + self.starts.capacity() * std::mem::size_of::<Starts>()
            + self.game_ids.capacity() * 16;
        tallies + games
    }

    /// A catalog of buckets and their tallies only, with no game (see [`crate::stored`]).
    pub(crate) fn from_buckets(stored: Vec<StoredBucket>) -> Catalog {
        let mut catalog = Catalog::default();
        for b in stored {
            let mut code = |kind: Label, text: Option<String>| {
                let next = catalog.labels.len() as u32;
                text.map(|t| *catalog.labels.entry((kind, t)).or_insert(next))
            };
            let class = Class {
                pc: b.player_count,
                full: b.full_set,
                tournament: code(Label::Tournament, b.tournament),
                source: code(Label::Source, b.source),
            };
            let key = (b.month, class);
            let id = match catalog.ids.get(&key) {
                Some(&id) => id,
                None => {
                    let id = catalog.buckets.len() as u32;
                    catalog.ids.insert(key, id);
                    if let Some(month) = key.0 {
                        catalog.months.entry(month).or_default().push(id);
                    }
                    catalog.buckets.push(Bucket { key, games: Vec::new(), tally: Tally::default() });
                    id
                }
            };
            catalog.classes.entry(class).or_default().add(&b.tally);
            if let Some(bucket) = catalog.buckets.get_mut(id as usize) {
                bucket.tally.add(&b.tally);
            }
        }
        catalog
    }

    /// Every bucket with its tally, its labels as texts.
    pub(crate) fn stored_buckets(&self) -> Vec<StoredBucket> {
        let texts: HashMap<(Label, u32), &str> =
            self.labels.iter().map(|((kind, text), &code)| ((*kind, code), text.as_str())).collect();
        let text = |kind: Label, code: Option<u32>| code.and_then(|c| texts.get(&(kind, c))).map(|t| (*t).to_owned());
        self.buckets
            .iter()
            .map(|b| StoredBucket {
                month: b.key.0,
                player_count: b.key.1.pc,
                full_set: b.key.1.full,
                tournament: text(Label::Tournament, b.key.1.tournament),
                source: text(Label::Source, b.key.1.source),
                tally: b.tally.clone(),
            })
            .collect()
    }

    /// Records a batch whose rows were just appended, with its tallies.
    pub(crate) fn commit(&mut self, new: NewGames, tallies: Vec<(u32, Tally)>) {
        for label in new.labels {
            let code = self.labels.len() as u32;
            self.labels.insert(label, code);
        }
        for key in new.buckets {
            let id = self.buckets.len() as u32;
            self.ids.insert(key, id);
            if let Some(month) = key.0 {
                self.months.entry(month).or_default().push(id);
            }
            self.buckets.push(Bucket { key, games: Vec::new(), tally: Tally::default() });
        }
        for NewGame { id, bucket, played, uploader, players, starts } in new.games {
            let number = self.played.len() as IdxSize;
            self.game_ids.insert(id);
            self.played.push(played);
            self.uploaders.push(uploader);
            if self.player_at.is_empty() {
                self.player_at.push(0);
            }
            self.players.extend(players);
            self.player_at.push(self.players.len() as u32);
            self.starts.push(starts);
            if let Some(b) = self.buckets.get_mut(bucket as usize) {
                b.games.push(number);
            }
        }
        for (bucket, t) in tallies {
            let Some(b) = self.buckets.get_mut(bucket as usize) else { continue };
            self.classes.entry(b.key.1).or_default().add(&t);
            b.tally.add(&t);
        }
    }

    /// The tallies a filter adds up, with their classes, computing only `parts` of the tallies
    /// of cut months.
    pub(crate) fn gather<'a>(
        &'a self,
        tables: &Tables,
        filter: &StatsFilter,
        parts: &[Part],
    ) -> Result<Vec<(Class, Cow<'a, Tally>)>, AnalyticsError> {
        let (from, until) = filter.played_bounds()?;
        // A wanted label no game carries matches nothing; an excluded one excludes nothing.
        let wanted = |kind: Label, text: &Option<String>| match text {
            None => Ok(None),
            Some(text) => self.label(kind, text).map(Some).ok_or(()),
        };
        let (Ok(tournament), Ok(uploader)) =
            (wanted(Label::Tournament, &filter.tournament), wanted(Label::Uploader, &filter.uploader))
        else {
            return Ok(Vec::new());
        };
        // Sources match by prefix (`simulate` selects every `simulate:…`).
        let sources = |prefix: &Option<String>| {
            prefix.as_deref().map(|p| self.labels_where(Label::Source, |text| text.starts_with(p)))
        };
        let (source, excluded) = (sources(&filter.source), sources(&filter.exclude_source));
        let has = |codes: &HashSet<u32>, code: Option<u32>| code.is_some_and(|c| codes.contains(&c));
        let matches = |c: &Class| {
            filter.player_count.is_none_or(|p| c.pc == p)
                && filter.furnishing_set.is_none_or(|s| c.full == (s == FurnishingSet::Full))
                && tournament.is_none_or(|t| c.tournament == Some(t))
                && source.as_ref().is_none_or(|codes| has(codes, c.source))
                && excluded.as_ref().is_none_or(|codes| !has(codes, c.source))
        };
        // Players: the codes of the keys asked for that some game has (none known: no game).
        let players: Option<HashSet<u32>> = (!filter.players.is_empty())
            .then(|| filter.players.iter().filter_map(|k| self.label(Label::Player, k)).collect());
        if players.as_ref().is_some_and(HashSet::is_empty) {
            return Ok(Vec::new());
        }
        let seated = |g: IdxSize| {
            let (a, b) = (self.player_at.get(g as usize), self.player_at.get(g as usize + 1));
            let codes = match (a, b) {
                (Some(&a), Some(&b)) => self.players.get(a as usize..b as usize).unwrap_or_default(),
                _ => &[],
            };
            players.as_ref().is_none_or(|wanted| codes.iter().any(|c| wanted.contains(c)))
        };
        // Filters on single games (uploader, players): their games are picked one by one.
        let by_game = uploader.is_some() || players.is_some();
        let bounded = from.is_some() || until.is_some();
        if !bounded && !by_game {
            return Ok(self.classes.iter().filter(|(c, _)| matches(c)).map(|(c, t)| (*c, Cow::Borrowed(t))).collect());
        }
        let inside = |at: i64| from.is_none_or(|f| at >= f) && until.is_none_or(|u| at < u);
        let played = |g: IdxSize| self.played.get(g as usize).copied().flatten();
        let keep = |g: IdxSize| {
            (!bounded || played(g).is_some_and(inside))
                && uploader.is_none_or(|u| self.uploaders.get(g as usize).copied().flatten() == Some(u))
                && seated(g)
        };
        // The buckets to look at: with time bounds, those of the months they touch; without,
        // every bucket (dated or not).
        let touched: Vec<(Option<i64>, u32)> = if bounded {
            let first = from.map_or(i64::MIN, month_of);
            let last = match until {
                Some(u) => month_of(u.saturating_sub(1)),
                None => i64::MAX,
            };
            let months = if first <= last { self.months.range(first..=last) } else { self.months.range(0..0) };
            months.flat_map(|(&m, ids)| ids.iter().map(move |&id| (Some(m), id))).collect()
        } else {
            (0..self.buckets.len() as u32).map(|id| (None, id)).collect()
        };
        let mut out = Vec::new();
        // Games of cut buckets to tally, and the buckets counted as whole minus the tally of
        // their games left out (when those are fewer than the games kept).
        let mut cut: Vec<IdxSize> = Vec::new();
        let mut minus: HashSet<u32> = HashSet::new();
        for (month, id) in touched {
            let Some(b) = self.buckets.get(id as usize).filter(|b| matches(&b.key.1)) else { continue };
            let whole_month =
                month.is_none_or(|m| inside(month_start(m)) && until.is_none_or(|u| month_start(m + 1) <= u));
            if whole_month && !by_game {
                out.push((b.key.1, Cow::Borrowed(&b.tally)));
                continue;
            }
            let (wanted, others): (Vec<IdxSize>, Vec<IdxSize>) = b.games.iter().copied().partition(|&g| keep(g));
            if others.is_empty() {
                out.push((b.key.1, Cow::Borrowed(&b.tally)));
            } else if wanted.len() <= others.len() {
                cut.extend(wanted);
            } else {
                minus.insert(id);
                cut.extend(others);
            }
        }
        let mut tallied: HashMap<u32, Tally> = HashMap::new();
        if !cut.is_empty() {
            cut.sort_unstable();
            tallied.extend(tally::compute(&tables.take(&cut, &self.starts, parts)?, parts, Vec::new())?);
        }
        for id in minus {
            let Some(b) = self.buckets.get(id as usize) else { continue };
            let mut whole = b.tally.clone();
            if let Some(t) = tallied.remove(&id) {
                whole.sub(&t);
            }
            out.push((b.key.1, Cow::Owned(whole)));
        }
        for (id, t) in tallied {
            if let Some(b) = self.buckets.get(id as usize) {
                out.push((b.key.1, Cow::Owned(t)));
            }
        }
        Ok(out)
    }
}
