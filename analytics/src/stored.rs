//! The tallies of every bucket in a form a store keeps ([`StoredBucket`]), and statistics
//! answered from them alone ([`crate::Stats::from_buckets`]).
//!
//! A bucket's tally is additive (see [`crate::tally`]): the tally of a set of games is the sum
//! of its parts' tallies. A store therefore keeps one row per bucket and adds to it the tally
//! of each batch of games it counts ([`StoredBucket::add`]); a server reads those rows and
//! answers every query whose filter selects whole buckets (no uploader, no player, time bounds
//! on month boundaries: [`crate::StatsFilter::needs_rows`]) with the same sums, hence the same
//! answers, as statistics computed from the rows of every game.
//!
//! # The text of a tally
//!
//! One line per part that has cells, `P:k,n,w,s,q k,n,w,s,q …`, with `P` the part's number
//! (the order of [`Part`]), and for each cell its key, player-games (or placements), wins,
//! score sum and sum of squared scores. Cells are in ascending key order. The text is
//! versioned by [`TALLY_FORMAT`]: a store that holds tallies of another version recounts them.

use crate::error::AnalyticsError;
use crate::tally::{Cells, Part, Sums, Tally};

/// The version of the tally text; stores recount when theirs differs.
pub const TALLY_FORMAT: i64 = 1;

/// Parts in the order of their numbers in the text.
const PARTS: [Part; 9] = [
    Part::Seats,
    Part::Tiles,
    Part::Strength,
    Part::Expeditions,
    Part::Loot,
    Part::Scores,
    Part::Spaces,
    Part::FirstArmed,
    Part::FirstExpedition,
];

/// The games of one calendar month (UTC; `None`: no readable `played_at`) and one class:
/// player count, furnishing set, tournament and `meta.source`, with their tally.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredBucket {
    pub month: Option<i64>,
    pub player_count: u8,
    pub full_set: bool,
    pub tournament: Option<String>,
    pub source: Option<String>,
    pub(crate) tally: Tally,
}

impl StoredBucket {
    /// The tally as text (see the module documentation).
    pub fn tally_text(&self) -> String {
        let mut out = String::new();
        for (number, part) in PARTS.iter().enumerate() {
            let cells = self.tally.get(*part);
            if cells.iter().next().is_none() {
                continue;
            }
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&number.to_string());
            out.push(':');
            for (i, (key, s)) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&format!("{key},{},{},{},{}", s.n, s.wins, s.score, s.score_sq));
            }
        }
        out
    }

    /// A bucket with its tally read from [`StoredBucket::tally_text`]'s text.
    pub fn with_tally_text(
        month: Option<i64>,
        player_count: u8,
        full_set: bool,
        tournament: Option<String>,
        source: Option<String>,
        text: &str,
    ) -> Result<StoredBucket, AnalyticsError> {
        Ok(StoredBucket { month, player_count, full_set, tournament, source, tally: read_tally(text)? })
    }

    /// Adds another tally of the same bucket (the games of both, counted once each).
    pub fn add(&mut self, other: &StoredBucket) {
        self.tally.add(&other.tally);
    }

    /// Whether `other` is the same bucket (month and class).
    pub fn same_bucket(&self, other: &StoredBucket) -> bool {
        self.month == other.month
            && self.player_count == other.player_count
            && self.full_set == other.full_set
            && self.tournament == other.tournament
            && self.source == other.source
    }

    /// Player-games the bucket counts.
    pub fn player_games(&self) -> u64 {
        self.tally.get(Part::Seats).iter().map(|(_, s)| s.n).sum()
    }
}

fn bad(what: &str) -> AnalyticsError {
    AnalyticsError::InvalidInput(format!("stored tally: {what}"))
}

/// Reads a tally's text. Bounded by the text: one cell per five numbers read.
fn read_tally(text: &str) -> Result<Tally, AnalyticsError> {
    let mut tally = Tally::default();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (number, cells) = line.split_once(':').ok_or_else(|| bad("a line without a part"))?;
        let part = number.parse::<usize>().ok().and_then(|n| PARTS.get(n)).ok_or_else(|| bad("unknown part"))?;
        let mut read = Vec::new();
        for cell in cells.split(' ') {
            let mut numbers = cell.split(',').map(|x| x.parse::<i64>().map_err(|_| bad("a number")));
            let mut next = || numbers.next().ok_or_else(|| bad("a short cell"))?;
            let key = next()?;
            let n = u64::try_from(next()?).map_err(|_| bad("a negative count"))?;
            let wins = u64::try_from(next()?).map_err(|_| bad("a negative count"))?;
            read.push((key, Sums { n, wins, score: next()?, score_sq: next()? }));
        }
        tally.set(*part, Cells::from_sorted(read).ok_or_else(|| bad("cells out of order"))?);
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{synthetic, Corpus, Stats, StatsFilter};

    /// The games with ids below `at` and the others.
    fn split(corpus: &Corpus, at: i64) -> (Corpus, Corpus) {
        let part = |keep: &dyn Fn(i64) -> bool| Corpus {
            player_games: corpus.player_games.iter().filter(|r| keep(r.game_id)).cloned().collect(),
            tiles: corpus.tiles.iter().filter(|r| keep(r.game_id)).cloned().collect(),
            loot: corpus.loot.iter().filter(|r| keep(r.game_id)).cloned().collect(),
            spaces: corpus.spaces.iter().filter(|r| keep(r.game_id)).cloned().collect(),
        };
        (part(&|g| g < at), part(&|g| g >= at))
    }

    #[test]
    fn a_tally_reads_back_from_its_text() {
        let stats = Stats::from_corpus(&synthetic::corpus(synthetic::Options::new(120, 5))).unwrap();
        for bucket in stats.stored_buckets() {
            let text = bucket.tally_text();
            let back = StoredBucket::with_tally_text(
                bucket.month,
                bucket.player_count,
                bucket.full_set,
                bucket.tournament.clone(),
                bucket.source.clone(),
                &text,
            )
            .unwrap();
            assert_eq!(back, bucket);
        }
    }

    #[test]
    fn a_damaged_tally_text_is_an_error_not_a_panic() {
        for text in ["x", "9:1,1,1,1,1", "0:1,1", "0:2,1,0,5,25 1,1,0,5,25", "0:a,b,c,d,e", "0:1,-1,0,0,0"] {
            assert!(read_tally(text).is_err(), "{text:?}");
        }
    }

    /// Statistics answered from the stored buckets equal those computed from every game's
    /// rows, for every family and every filter that selects whole buckets.
    #[test]
    fn answers_from_stored_buckets_equal_answers_from_rows() {
        let corpus = synthetic::corpus(synthetic::Options::new(400, 11));
        let rows = Stats::from_corpus(&corpus).unwrap();
        // Counted in two batches and added, as a store counts them.
        let (a, b) = split(&corpus, 200);
        let mut stored = Stats::from_corpus(&a).unwrap().stored_buckets();
        for bucket in Stats::from_corpus(&b).unwrap().stored_buckets() {
            match stored.iter_mut().find(|s| s.same_bucket(&bucket)) {
                Some(s) => s.add(&bucket),
                None => stored.push(bucket),
            }
        }
        let tallied = Stats::from_buckets(stored).unwrap();
        let filters = [
            StatsFilter::all(),
            StatsFilter::all().player_count(2),
            StatsFilter::all().player_count(4).furnishing_set(crate::FurnishingSet::Full),
            StatsFilter::all().source("simulate".to_owned()),
            StatsFilter::all().exclude_source("simulate".to_owned()),
            StatsFilter::all().played_from("2022-03-01".to_owned()),
            StatsFilter::all().played_from("2022-02-01".to_owned()).played_until("2023-06-01".to_owned()),
            StatsFilter::all().played_until("2022-01-01T00:00:00+00:00".to_owned()),
        ];
        for filter in filters {
            assert!(!filter.needs_rows(), "{filter:?}");
            assert_eq!(tallied.all(&filter).unwrap(), rows.all(&filter).unwrap(), "{filter:?}");
        }
        assert_eq!(tallied.player_games_counted(), rows.player_games() as u64);
    }

    #[test]
    fn statistics_from_stored_buckets_refuse_filters_that_need_rows() {
        let stats = Stats::from_buckets(Vec::new()).unwrap();
        for filter in [
            StatsFilter::all().uploader("ann".to_owned()),
            StatsFilter::all().player("name:ann"),
            StatsFilter::all().played_from("2022-03-15".to_owned()),
        ] {
            assert!(filter.needs_rows());
            assert!(matches!(stats.seats(&filter), Err(AnalyticsError::NeedsRows)));
        }
    }
}
