//! Strategy statistics over verified Caverna games.
//!
//! The crate depends on the engine (for the vocabulary: tiles, loot items, action spaces) and
//! on polars; it performs no IO and reads no clock. The
//! service loads rows from its store into a [`Corpus`] — **complete, legal games only**; the
//! caller filters — builds a [`Stats`] from it, adds games as they arrive
//! ([`Stats::add_games`]) and asks questions per [`StatsFilter`]:
//!
//! | method | module | what |
//! |---|---|---|
//! | [`Stats::furnishings`] | [`furnishings`] | per tile: built, win rates built / not built, scores, round built |
//! | [`Stats::weapons`] | [`weapons`] | peaceful / light / heavy, max strength, expeditions, loot of winners vs others |
//! | [`Stats::seats`] | [`general`] | win rate by seat per player count, first-player advantage |
//! | [`Stats::scores`] | [`general`] | score quantiles and histogram |
//! | [`Stats::spaces`] | [`general`] | action-space use by round |
//!
//! Games other than Caverna (Village, Above and Below) have the game-agnostic [`outcomes`]:
//! win rate and margin by counter value, main source of points, seat and score distribution,
//! computed on query from an [`outcomes::OutcomeCorpus`] (plain Rust; those corpora are small).
//!
//! Rates are fractions in 0–1 with their sample size, a 95% Wilson score interval and a
//! `below_min_sample` flag ([`Rate`]). Each module's documentation gives the exact definitions;
//! [`stats`] describes how results stay fresh.
//!
//! # How statistics are computed
//!
//! The rows live in polars frames (`frames`). Polars computes, with one group-by per kind of
//! count, the *tallies* (`tally`): counts of player-games, wins and score sums per cell (a seat,
//! a tile and round, a loot item, a score, a space and round...) for each *bucket* of games of
//! one player count, set, tournament and calendar month (`buckets`). Tallies are computed when
//! games are added, for those games only, and added to their buckets'. Two parts of a new
//! batch's tallies, tiles and action spaces, are instead counted in plain Rust arrays while the
//! batch is translated into rows: their cells are few per bucket (at most 1,024) but many in
//! all (1.3 M tile cells for a million player-games), where a dense array per bucket is exact
//! and several times cheaper than polars' hash group-by, which adds nothing there. A query adds
//! up the tallies of the buckets its filter selects and derives the statistic from the sums in
//! plain Rust (each family's module).
//!
//! The split is deliberate: a query then touches at most a few thousand small sorted lists
//! instead of millions of rows, and at that size the fixed cost of planning and running a
//! polars query (about a millisecond per group-by) would dominate; sums of integer counts are
//! exact, so the results are those of a group-by over the selected rows. Polars remains the
//! engine wherever rows are read back: for the other parts of new games, and for every part of
//! the games of a month that a time bound cuts in two, which are gathered from the frames and
//! tallied with the group-bys (the tests check both ways of counting against plain loops).
//!
//! ```
//! use chronicle_analytics::{synthetic, Stats, StatsFilter};
//! let corpus = synthetic::corpus(synthetic::Options::new(300, 7));
//! let stats = Stats::from_corpus(&corpus).unwrap();
//! let seats = stats.seats(&StatsFilter::all().player_count(2)).unwrap();
//! assert!(seats.by_seat.iter().all(|s| s.player_count == 2));
//! ```

mod buckets;
mod calendar;
mod columns;
pub mod controlled;
pub mod error;
pub mod filter;
mod frames;
pub mod furnishings;
pub mod general;
mod ingest;
pub mod input;
pub mod outcomes;
pub mod questions;
pub mod rate;
pub mod ratings;
pub mod skill;
pub mod stats;
pub mod stored;
pub mod synthetic;
mod tally;
pub mod weapons;

pub use error::AnalyticsError;
pub use filter::{day_after, parse_played_at, played_month, StatsFilter};
pub use furnishings::{FurnishingStats, RoundWinRate, TileStats};
pub use general::{
    Bucket, FirstPlayerRow, Quantiles, RoundUse, ScoreStats, SeatStats, SeatWinRate, SpaceCount, SpaceUseStats,
};
pub use input::{Corpus, FurnishingSet, LootTaken, PlayerGame, SpaceUse, TileBuilt};
pub use rate::{wilson, Rate, DEFAULT_MIN_SAMPLE};
pub use stats::{AllStats, Stats, DEFAULT_BUCKET_WIDTH};
pub use stored::{StoredBucket, TALLY_FORMAT};
pub use weapons::{
    ClassStats, ExpeditionBucket, ExpeditionStats, GroupStats, LootStats, RoundStats, StrengthStats, WeaponClass,
    WeaponStats,
};
