//! Strategy statistics over verified Caverna games.
//!
//! The crate depends on the engine (for the vocabulary: tiles, loot items, action spaces) and
//! on polars, which computes every statistic; it performs no IO and reads no clock. The
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
//! Rates are fractions in 0–1 with their sample size, a 95% Wilson score interval and a
//! `below_min_sample` flag ([`Rate`]). Each module's documentation gives the exact definitions;
//! [`stats`] describes how results stay fresh.
//!
//! ```
//! use chronicle_analytics::{synthetic, Stats, StatsFilter};
//! let corpus = synthetic::corpus(synthetic::Options::new(300, 7));
//! let stats = Stats::from_corpus(&corpus).unwrap();
//! let seats = stats.seats(&StatsFilter::all().player_count(2)).unwrap();
//! assert!(seats.by_seat.iter().all(|s| s.player_count == 2));
//! ```

mod columns;
pub mod error;
pub mod filter;
mod frames;
pub mod furnishings;
pub mod general;
pub mod input;
pub mod rate;
pub mod stats;
pub mod synthetic;
pub mod weapons;

pub use error::AnalyticsError;
pub use filter::{parse_played_at, StatsFilter};
pub use furnishings::{FurnishingStats, RoundWinRate, TileStats};
pub use general::{Bucket, FirstPlayerRow, Quantiles, RoundUse, ScoreStats, SeatStats, SeatWinRate, SpaceCount, SpaceUseStats};
pub use input::{Corpus, FurnishingSet, LootTaken, PlayerGame, SpaceUse, TileBuilt};
pub use rate::{wilson, Rate, DEFAULT_MIN_SAMPLE};
pub use stats::{AllStats, Stats, DEFAULT_BUCKET_WIDTH};
pub use weapons::{ClassStats, ExpeditionBucket, ExpeditionStats, GroupStats, LootStats, StrengthStats, WeaponClass, WeaponStats};
